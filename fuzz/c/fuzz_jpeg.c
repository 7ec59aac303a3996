/* libFuzzer target: pk_jpeg_read_size, then pk_jpeg_decode at a DCT scale
 * chosen from the input's length (1, 2, 4 or 8), then the pixel kernels, then
 * the fused decode-and-fit (streaming resampler, helper thread for tall
 * pictures) to a size derived from the header. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char msg[PK_MSG_LEN];
    int w = 0, h = 0;
    memset(msg, 0x55, sizeof msg);
    int status = pk_jpeg_read_size(data, len, &w, &h, msg);
    if (status != PK_OK) pk_fuzz_check_message(msg);

    static const int scales[4] = {1, 2, 4, 8};
    pk_image img;
    memset(msg, 0x55, sizeof msg);
    status = pk_jpeg_decode(data, len, scales[len & 3], PK_FUZZ_MAX_PIXELS, &img, msg);
    if (status == PK_OK) {
        pk_fuzz_pipeline(&img, data, len);
        pk_free(img.pixels);
    } else {
        if (img.pixels) abort(); /* failure leaves outputs NULL */
        pk_fuzz_check_message(msg);
    }

    int dw = 0, dh = 0;
    pk_fuzz_fit_size(w, h, scales[len & 3], len, &dw, &dh);
    memset(msg, 0x55, sizeof msg);
    status = pk_jpeg_decode_fit(data, len, scales[len & 3], PK_FUZZ_MAX_PIXELS, dw, dh, &img, msg);
    if (status == PK_OK && (img.width != dw || img.height != dh)) abort();
    pk_fuzz_outcome(status, &img, data, len, msg);
    return 0;
}
