/* libFuzzer target: pk_jxl_info (through a read callback, as the header reader feeds it),
 * then pk_jxl_decode at full size or with a small target (as grid cells ask: the DC-pass
 * path), then the pixel kernels. libjxl itself is not instrumented: what is fuzzed is our use
 * of it (the incremental header feed, the cap on the basic info, the output buffer size, the
 * first-frame stop, the data ICC profile through Little CMS) and whether it hands us anything broken. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char msg[PK_MSG_LEN];
    pk_fuzz_source source = {data, len};
    pk_jxl_header info;
    memset(msg, 0x55, sizeof msg);
    int status = pk_jxl_info(pk_fuzz_read, &source, (int64_t)len, &info, msg);
    if (status == PK_OK) {
        if (info.width <= 0 || info.height <= 0 || info.orientation < 1 || info.orientation > 8) abort();
    } else {
        pk_fuzz_check_message(msg);
    }

    int tw = 0, th = 0;
    if (status == PK_OK && (len & 1)) pk_fuzz_fit_size(info.width, info.height, 8, len, &tw, &th);
    pk_image img;
    memset(msg, 0x55, sizeof msg);
    status = pk_jxl_decode(data, len, PK_FUZZ_MAX_PIXELS, tw, th, &img, msg);
    if (status == PK_OK && ((uint64_t)img.width * (uint64_t)img.height > PK_FUZZ_MAX_PIXELS)) abort();
    pk_fuzz_outcome(status, &img, data, len, msg);
    return 0;
}
