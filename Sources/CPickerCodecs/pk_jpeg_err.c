/*
 * The libjpeg error manager of the JPEG decode and encode (pk_jpeg.c, pk_jpeg_encode.c).
 *
 * Error policy: libjpeg reports fatal errors through error_exit (we longjmp
 * back to the setjmp in the same C function) and data problems through
 * emit_message(-1) warnings, after which it carries on and fills the missing
 * part with grey. pickerd must not show such a picture as if it were fine, so
 * warnings that mean image data was lost are turned into errors:
 *   - JWRN_JPEG_EOF       "Premature end of JPEG file" (truncation)
 *   - JWRN_MUST_RESYNC    "found marker ... instead of RSTn" (sync lost)
 *   - JWRN_BOGUS_PROGRESSION, JWRN_NOT_SEQUENTIAL (broken scan structure)
 *   - JWRN_HIT_MARKER "premature end of data segment" and
 *     JWRN_HUFF_BAD_CODE / JWRN_ARITH_BAD_CODE "bad Huffman code", unless
 *     the file has restart markers: then the damage stays inside one restart
 *     interval (libjpeg resynchronises at the next RSTn), which real files
 *     that every viewer displays do carry; tolerated up to
 *     PK_JPEG_MAX_DAMAGED times, beyond that the picture is mostly lost.
 * JWRN_EXTRANEOUS_DATA ("N extraneous bytes before marker": junk between
 * segments or before RSTn/EOI, pixels intact) is tolerated up to
 * PK_JPEG_MAX_EXTRANEOUS times. Harmless warnings (unknown JFIF revision,
 * Adobe transform code, bad ICC marker) are ignored.
 */
#include <stdio.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

#include "CPickerCodecs.h"
#include "pk_jpeg_err.h"

#define PK_JPEG_MAX_EXTRANEOUS 256
#define PK_JPEG_MAX_DAMAGED 32
/* Progressive files with absurd scan counts are a CPU bomb. */
#define PK_JPEG_MAX_SCANS 1000

static int pk_jpeg_status_for(int code) {
    switch (code) {
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_NOT_COMPILED:
        return PK_UNSUPPORTED;
    case JERR_IMAGE_TOO_BIG:
        return PK_TOO_LARGE;
    case JERR_OUT_OF_MEMORY:
        return PK_NO_MEMORY;
    default:
        return PK_CORRUPT;
    }
}

static void pk_jpeg_fail(j_common_ptr cinfo, int status) {
    pk_jerr *err = (pk_jerr *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    cinfo->err->format_message(cinfo, buffer);
    if (err->msg) snprintf(err->msg, PK_MSG_LEN, "%s", buffer);
    err->status = status;
    longjmp(err->jump, 1);
}

static void pk_jpeg_error_exit(j_common_ptr cinfo) {
    pk_jpeg_fail(cinfo, pk_jpeg_status_for(cinfo->err->msg_code));
}

static void pk_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; /* trace messages */
    pk_jerr *err = (pk_jerr *)cinfo->err;
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:
    case JWRN_MUST_RESYNC:
    case JWRN_BOGUS_PROGRESSION:
    case JWRN_NOT_SEQUENTIAL:
        pk_jpeg_fail(cinfo, PK_CORRUPT);
        break;
    case JWRN_HIT_MARKER:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE: {
        int restarts = cinfo->is_decompressor &&
                       ((j_decompress_ptr)cinfo)->restart_interval > 0;
        if (!restarts || ++err->damaged > PK_JPEG_MAX_DAMAGED)
            pk_jpeg_fail(cinfo, PK_CORRUPT);
        break;
    }
    case JWRN_EXTRANEOUS_DATA:
        if (++err->extraneous > PK_JPEG_MAX_EXTRANEOUS) pk_jpeg_fail(cinfo, PK_CORRUPT);
        break;
    default:
        break;
    }
}

void pk_jpeg_progress(j_common_ptr cinfo) {
    /* Called once per batch of rows read (and per row of coefficients for progressive
     * files): where a cancelled job stops (pk_work.h). */
    if (pk_cancelled()) {
        pk_jerr *err = (pk_jerr *)cinfo->err;
        if (err->msg) snprintf(err->msg, PK_MSG_LEN, "cancelled");
        err->status = PK_CANCELLED;
        longjmp(err->jump, 1);
    }
    if (cinfo->is_decompressor) {
        j_decompress_ptr d = (j_decompress_ptr)cinfo;
        if (d->input_scan_number > PK_JPEG_MAX_SCANS) {
            pk_jerr *err = (pk_jerr *)cinfo->err;
            if (err->msg)
                snprintf(err->msg, PK_MSG_LEN, "too many progressive scans (over %d)",
                         PK_JPEG_MAX_SCANS);
            err->status = PK_CORRUPT;
            longjmp(err->jump, 1);
        }
    }
}

void pk_jpeg_init_err(pk_jerr *err, char *msg) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = pk_jpeg_error_exit;
    err->pub.emit_message = pk_jpeg_emit_message;
    err->msg = msg;
    err->status = PK_OK;
    err->extraneous = 0;
    err->damaged = 0;
}

void pk_set_msg(char *msg, const char *text) {
    if (msg) snprintf(msg, PK_MSG_LEN, "%s", text);
}
