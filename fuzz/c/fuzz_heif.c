/* libFuzzer target: pk_heif_info (through a read callback, as the header reader uses it),
 * then pk_heif_decode at full size, box-shrunk by 4 on load, or asking for an embedded thumbnail (as grid cells do),
 * then the pixel kernels. libheif itself is not instrumented: what is fuzzed is our use of
 * it (sizes, strides, the EXIF offset, the cap) and whether it hands us anything broken. */
#include "fuzz_common.h"

typedef struct { const uint8_t *data; size_t len; } fuzz_source;

static int fuzz_read(void *context, int64_t offset, void *dst, size_t count) {
    const fuzz_source *s = context;
    if (offset < 0 || (uint64_t)offset > s->len || count > s->len - (size_t)offset) return -1;
    memcpy(dst, s->data + offset, count);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char msg[PK_MSG_LEN];
    fuzz_source source = {data, len};
    pk_heif_header info;
    memset(msg, 0x55, sizeof msg);
    int status = pk_heif_info(fuzz_read, &source, (int64_t)len, PK_FUZZ_MAX_PIXELS, 1 << 20, &info, msg);
    if (status == PK_OK) {
        if (info.exif) {
            volatile uint8_t sink = info.exif_len ? info.exif[0] ^ info.exif[info.exif_len - 1] : 0;
            (void)sink;
        }
        pk_free(info.exif);
    } else {
        pk_fuzz_check_message(msg);
    }

    int tw = 0, th = 0;
    if (status == PK_OK && (len & 1)) pk_fuzz_fit_size(info.width, info.height, 1, len, &tw, &th);
    pk_image img;
    memset(msg, 0x55, sizeof msg);
    status = pk_heif_decode(data, len, PK_FUZZ_MAX_PIXELS, tw, th, 1 + (int)(len % 3 == 2) * 3, &img, msg);
    if (status == PK_OK) {
        if ((uint64_t)img.width * (uint64_t)img.height > PK_FUZZ_MAX_PIXELS) abort();
        pk_fuzz_pipeline(&img, data, len);
        pk_free(img.pixels);
    } else {
        if (img.pixels) abort();
        pk_fuzz_check_message(msg);
    }
    return 0;
}
