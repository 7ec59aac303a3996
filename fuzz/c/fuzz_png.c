/* libFuzzer target: pk_png_decode (every colour type, bit depth, interlace,
 * ancillary chunks), then the pixel kernels, then the fused decode-and-fit
 * (rows streamed into the resampler, helper thread for tall pictures). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char msg[PK_MSG_LEN];
    pk_image img;
    memset(msg, 0x55, sizeof msg);
    int status = pk_png_decode(data, len, PK_FUZZ_MAX_PIXELS, &img, msg);
    pk_fuzz_outcome(status, &img, data, len, msg);

    /* IHDR width and height, when the file has them where they belong. */
    int w = 0, h = 0;
    if (len >= 24) {
        w = (int)((uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 | (uint32_t)data[18] << 8 | data[19]);
        h = (int)((uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 | (uint32_t)data[22] << 8 | data[23]);
    }
    int dw = 0, dh = 0;
    pk_fuzz_fit_size(w, h, 1, len, &dw, &dh);
    memset(msg, 0x55, sizeof msg);
    status = pk_png_decode_fit(data, len, PK_FUZZ_MAX_PIXELS, dw, dh, &img, msg);
    if (status == PK_OK && (img.width != dw || img.height != dh)) abort();
    pk_fuzz_outcome(status, &img, data, len, msg);
    return 0;
}
