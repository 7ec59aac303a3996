/* libFuzzer target: pk_gif_decode (giflib's low-level API, first frame only, composited onto
 * the logical screen), then the pixel kernels. The screen is checked against the cap before the
 * canvas is allocated, so a 65535x65535 screen is a refusal, not an allocation. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char msg[PK_MSG_LEN];
    pk_image img;
    memset(msg, 0x55, sizeof msg);
    int status = pk_gif_decode(data, len, PK_FUZZ_MAX_PIXELS, &img, msg);
    pk_fuzz_outcome(status, &img, data, len, msg);
    return 0;
}
