#ifndef PK_TERMINAL_H
#define PK_TERMINAL_H

#include <stddef.h>
#include <stdint.h>

/* Terminal pictures drawn by libchafa. The header names no chafa or GLib type, so Swift
 * sees only plain C. Each call returns 0 and a malloc'd text (free with pk_terminal_free),
 * or -1 with a message in `message` (at least PK_TERMINAL_MSG_LEN bytes). */

#define PK_TERMINAL_MSG_LEN 256

/* The symbol classes of pk_terminal_symbols (the wire values of PickerProtocol's SymbolClass). */
#define PK_SYMBOLS_BLOCK 0   /* block elements U+2580–U+259F and space */
#define PK_SYMBOLS_SEXTANT 1 /* blocks, box-drawing borders, sextants U+1FB00–U+1FB3B, space */
#define PK_SYMBOLS_ASCII 2   /* printable ASCII */

/* Symbols of `symbol_class` (any other value draws blocks) in 24-bit colour, fitted into at
 * most max_cols × max_rows cells of 1:2 aspect. Rows are separated by "\n"; the text ends with
 * an SGR reset. `cols`/`rows` receive the cell grid used. */
int pk_terminal_symbols(const uint8_t *pixels, int width, int height, int channels,
                        int max_cols, int max_rows, int symbol_class,
                        uint8_t **out, size_t *out_length, int *cols, int *rows, char *message);

/* A DCS sixel sequence of the picture at its own pixel size, for any width. Sixel bands are
 * 6 px tall: the sixel is the picture's top rows of whole bands (the last height % 6 rows are
 * left out, not squashed in); a picture lower than 6 px is stretched to one band.
 * `drawn_height` receives the sixel's height. */
int pk_terminal_sixel(const uint8_t *pixels, int width, int height, int channels,
                      uint8_t **out, size_t *out_length, int *drawn_height, char *message);

void pk_terminal_free(uint8_t *text);

#endif
