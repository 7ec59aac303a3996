/*
 * The libjpeg error manager pickerd's JPEG decode and encode share (pk_jpeg_err.c): fatal
 * errors longjmp back to the caller's setjmp with a status; warnings that mean lost image data
 * become errors (the policy is described there); a cancelled job stops at the progress hook.
 */
#ifndef PK_JPEG_ERR_H
#define PK_JPEG_ERR_H

#include <stdio.h>
#include <setjmp.h>
#include <jpeglib.h>

typedef struct pk_jerr {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *msg;
    int status;
    int extraneous;
    int damaged;
} pk_jerr;

/* Installs the error manager: `msg` (PK_MSG_LEN bytes, or NULL) receives the reason. */
void pk_jpeg_init_err(pk_jerr *err, char *msg);
/* The progress hook: stops a cancelled job and a progressive file with too many scans. */
void pk_jpeg_progress(j_common_ptr cinfo);
void pk_set_msg(char *msg, const char *text);

#endif
