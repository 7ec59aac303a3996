/* libFuzzer target: pk_webp_info, then pk_webp_decode either at full size or
 * through libwebp's scaler (as pickerd does for stills), including the
 * animated first-frame path, then the pixel kernels. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len) {
    char msg[PK_MSG_LEN];
    int w = 0, h = 0, alpha = 0, anim = 0;
    memset(msg, 0x55, sizeof msg);
    int status = pk_webp_info(data, len, &w, &h, &alpha, &anim, msg);
    if (status != PK_OK) pk_fuzz_check_message(msg);

    int sw = 0, sh = 0;
    if (status == PK_OK && (len & 1) && w > 0 && h > 0) {
        sw = w / 3 > 0 ? w / 3 : 1;
        sh = h / 3 > 0 ? h / 3 : 1;
    }
    pk_image img;
    memset(msg, 0x55, sizeof msg);
    status = pk_webp_decode(data, len, sw, sh, PK_FUZZ_MAX_PIXELS, &img, msg);
    pk_fuzz_outcome(status, &img, data, len, msg);
    return 0;
}
