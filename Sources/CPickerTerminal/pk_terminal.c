#include "pk_terminal.h"

#include <chafa.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Width : height of a terminal cell that chafa assumes when fitting symbols (8×16 px). */
static const float pk_font_ratio = 0.5f;

static pthread_once_t pk_threads_once = PTHREAD_ONCE_INIT;

/* chafa would start its own threads (one a core) for every canvas; the daemon already runs image
 * work on a pool sized to the cores, so each drawing stays on the thread that asked for it. */
static void pk_single_thread(void) {
    chafa_set_n_threads(1);
}

static int pk_fail(char *message, const char *text) {
    snprintf(message, PK_TERMINAL_MSG_LEN, "%s", text);
    return -1;
}

static ChafaPixelType pk_pixel_type(int channels) {
    return channels == 4 ? CHAFA_PIXEL_RGBA8_UNASSOCIATED : CHAFA_PIXEL_RGB8;
}

/* A term info that speaks 24-bit colour and sixels, whatever terminal the daemon runs under:
 * the client, not the daemon's environment, decides where the text is shown. */
static ChafaTermInfo *pk_term_info(void) {
    return chafa_term_db_get_fallback_info(chafa_term_db_get_default());
}

/* chafa 1.12's scaler (smolscale) keeps the source row stride in 32-bit words (the stride in
 * bytes divided by 4), so a stride that is not a multiple of 4 bytes — RGB rows whose width is
 * not a multiple of 4 — is read 1 to 3 bytes short on every row and the picture comes out
 * sheared (and its channels rotated). Such rows are copied into rows padded to 4 bytes; RGBA
 * rows and RGB rows of a width that is a multiple of 4 are handed over as they are.
 * Returns the rows to draw and their stride, with `*copy` set to what the caller must free
 * (NULL when nothing was copied), or NULL when memory ran out. */
static const uint8_t *pk_aligned_rows(const uint8_t *pixels, int width, int height, int channels,
                                      int *rowstride, uint8_t **copy) {
    size_t row = (size_t)width * (size_t)channels;
    size_t stride = (row + 3) & ~(size_t)3;
    *copy = NULL;
    *rowstride = (int)stride;
    if (stride == row) return pixels;
    uint8_t *padded = calloc((size_t)height, stride);
    if (padded == NULL) return NULL;
    for (int y = 0; y < height; y++) memcpy(padded + (size_t)y * stride, pixels + (size_t)y * row, row);
    *copy = padded;
    return padded;
}

/* Draws the pixels on a canvas made from `config` and hands back its printed text. */
static int pk_print(ChafaCanvasConfig *config, const uint8_t *pixels, int width, int height,
                    int channels, const char *suffix, uint8_t **out, size_t *out_length, char *message) {
    pthread_once(&pk_threads_once, pk_single_thread);
    int rowstride = 0;
    uint8_t *padded = NULL;
    const uint8_t *rows = pk_aligned_rows(pixels, width, height, channels, &rowstride, &padded);
    if (rows == NULL) return pk_fail(message, "out of memory");
    ChafaCanvas *canvas = chafa_canvas_new(config);
    if (canvas == NULL) {
        free(padded);
        return pk_fail(message, "chafa could not make a canvas");
    }
    chafa_canvas_draw_all_pixels(canvas, pk_pixel_type(channels), rows, width, height, rowstride);
    free(padded);
    ChafaTermInfo *info = pk_term_info();
    GString *text = chafa_canvas_print(canvas, info);
    chafa_term_info_unref(info);
    chafa_canvas_unref(canvas);
    if (text == NULL) return pk_fail(message, "chafa printed nothing");
    if (text->len == 0) {
        g_string_free(text, TRUE);
        return pk_fail(message, "chafa printed nothing");
    }
    g_string_append(text, suffix);
    uint8_t *copy = malloc(text->len + 1);
    if (copy == NULL) {
        g_string_free(text, TRUE);
        return pk_fail(message, "out of memory");
    }
    memcpy(copy, text->str, text->len);
    copy[text->len] = 0;
    *out = copy;
    *out_length = text->len;
    g_string_free(text, TRUE);
    return 0;
}

static int pk_check_input(const uint8_t *pixels, int width, int height, int channels, char *message) {
    if (pixels == NULL || width <= 0 || height <= 0) return pk_fail(message, "empty picture");
    if (channels != 3 && channels != 4) return pk_fail(message, "pixels must be RGB or RGBA");
    return 0;
}

/* chafa's symbol tags for a class; blocks for a value this build does not know. */
static ChafaSymbolTags pk_symbol_tags(int symbol_class) {
    switch (symbol_class) {
    case PK_SYMBOLS_SEXTANT:
        return CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_BORDER | CHAFA_SYMBOL_TAG_SEXTANT | CHAFA_SYMBOL_TAG_SPACE;
    case PK_SYMBOLS_ASCII:
        return CHAFA_SYMBOL_TAG_ASCII | CHAFA_SYMBOL_TAG_SPACE;
    default:
        return CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE;
    }
}

int pk_terminal_symbols(const uint8_t *pixels, int width, int height, int channels,
                        int max_cols, int max_rows, int symbol_class,
                        uint8_t **out, size_t *out_length, int *cols, int *rows, char *message) {
    if (pk_check_input(pixels, width, height, channels, message) != 0) return -1;
    if (max_cols <= 0 || max_rows <= 0) return pk_fail(message, "no cells to draw in");
    gint w = max_cols, h = max_rows;
    chafa_calc_canvas_geometry(width, height, &w, &h, pk_font_ratio, TRUE, FALSE);
    ChafaSymbolMap *symbols = chafa_symbol_map_new();
    chafa_symbol_map_add_by_tags(symbols, pk_symbol_tags(symbol_class));
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR);
    chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS);
    chafa_canvas_config_set_geometry(config, w, h);
    chafa_canvas_config_set_symbol_map(config, symbols);
    /* chafa already ends the last row with an SGR reset. */
    int status = pk_print(config, pixels, width, height, channels, "", out, out_length, message);
    chafa_canvas_config_unref(config);
    chafa_symbol_map_unref(symbols);
    if (status == 0) {
        *cols = w;
        *rows = h;
    }
    return status;
}

int pk_terminal_sixel(const uint8_t *pixels, int width, int height, int channels,
                      uint8_t **out, size_t *out_length, int *drawn_height, char *message) {
    if (pk_check_input(pixels, width, height, channels, message) != 0) return -1;
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR);
    chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS);
    /* One cell the size of the picture: the sixel is drawn pixel for pixel, not resampled.
     * Sixel bands are 6 px tall and chafa rounds the cell height down to them, scaling the
     * picture into what is left; so only the rows of whole bands are handed over (the last
     * 0-5 rows are left out) and nothing is squashed. A picture lower than one band is
     * stretched to one. */
    int drawn = height < 6 ? 6 : height - height % 6;
    int rows = height < 6 ? height : drawn;
    chafa_canvas_config_set_cell_geometry(config, width, drawn);
    chafa_canvas_config_set_geometry(config, 1, 1);
    /* chafa ends the DCS with ST; the reset is the contract's common ending of text formats. */
    int status = pk_print(config, pixels, width, rows, channels, "\033[0m", out, out_length, message);
    chafa_canvas_config_unref(config);
    if (status == 0) *drawn_height = drawn;
    return status;
}

void pk_terminal_free(uint8_t *text) {
    free(text);
}
