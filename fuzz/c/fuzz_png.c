/* libFuzzer target: pk_png_decode (every colour type, bit depth, interlace,
 * ancillary chunks), then the pixel kernels. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char msg[PK_MSG_LEN];
    pk_image img;
    memset(msg, 0x55, sizeof msg);
    int status = pk_png_decode(data, len, PK_FUZZ_MAX_PIXELS, &img, msg);
    if (status == PK_OK) {
        pk_fuzz_pipeline(&img, data, len);
        pk_free(img.pixels);
    } else {
        if (img.pixels) abort();
        pk_fuzz_check_message(msg);
    }
    return 0;
}
