/* libFuzzer target: pk_heif_info (through a read callback, as the header reader uses it),
 * then pk_heif_decode at full size, box-shrunk by 4 on load, or asking for an embedded thumbnail (as grid cells do),
 * then the pixel kernels. libheif itself is not instrumented: what is fuzzed is our use of
 * it (sizes, strides, the EXIF offset, the cap) and whether it hands us anything broken. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char msg[PK_MSG_LEN];
    pk_fuzz_source source = {data, len};
    pk_heif_header info;
    memset(msg, 0x55, sizeof msg);
    int status = pk_heif_info(pk_fuzz_read, &source, (int64_t)len, PK_FUZZ_MAX_PIXELS, 1 << 20, &info, msg);
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
    if (status == PK_OK && ((uint64_t)img.width * (uint64_t)img.height > PK_FUZZ_MAX_PIXELS)) abort();
    pk_fuzz_outcome(status, &img, data, len, msg);
    return 0;
}
