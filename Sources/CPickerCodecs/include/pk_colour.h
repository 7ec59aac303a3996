/*
 * Colour management (Little CMS 2, pk_colour.c): pictures that carry an ICC profile are
 * converted to sRGB, so what pickerd sends never carries a profile.
 *
 * Intent: perceptual, without black-point compensation. The profiles photos mostly carry
 * (Adobe RGB, ProPhoto, Display P3) are matrix/shaper profiles, which have no perceptual
 * table: Little CMS then uses the matrix, and perceptual and relative colorimetric give the
 * same colours. Where a profile has tables (CMYK printer profiles, some camera profiles),
 * its perceptual table is the one its maker built for looking at pictures (out-of-gamut
 * colours compressed, not clipped into flat patches), and it is the default of Firefox and
 * of Pillow's ImageCms, which made the corpus references. Measured: a CMYK JPEG converted
 * with relative colorimetric was 3.7-6.3/255 off ImageCms's perceptual result; perceptual
 * matches it (ColourManagementTests).
 *
 * Transforms are cached per profile (its bytes, compared whole, and the input layout),
 * at most PK_COLOUR_CACHE_MAX of them, least recently used out first; a profile that
 * Little CMS refuses is cached as refused, so a bad profile costs one parse.
 * An sRGB profile (most camera JPEGs carry one) is recognised when its transform is built (it
 * moves no value of a 9x9x9 grid by more than 1/255) and costs no pixel work after that.
 * Every function is thread-safe; cmsDoTransform on a shared transform is (lcms2 copies
 * its one-pixel cache per call).
 */
#ifndef PK_COLOUR_H
#define PK_COLOUR_H

#include <stddef.h>
#include <stdint.h>

#define PK_COLOUR_CACHE_MAX 16

/* What became of a picture's colours (pk_image.colour). */
typedef enum pk_colour_outcome {
    PK_COLOUR_NONE = 0,      /* no profile: the pixels are taken as sRGB */
    PK_COLOUR_CONVERTED = 1, /* converted from the embedded profile to sRGB */
    PK_COLOUR_IGNORED = 2    /* a profile Little CMS refuses, or not for this picture's
                                colour space: taken as sRGB (the picture still shows) */
} pk_colour_outcome;

/* The layouts a transform reads; it always writes RGB (3 bytes) or, for RGBA, RGBA. */
typedef enum pk_colour_input {
    PK_COLOUR_IN_RGB = 0,
    PK_COLOUR_IN_RGBA = 1,     /* alpha copied through */
    PK_COLOUR_IN_CMYK = 2,     /* writes RGB */
    PK_COLOUR_IN_CMYK_INV = 3  /* Adobe's inverted CMYK (APP14); writes RGB */
} pk_colour_input;

/* Converts an RGB (3) or RGBA (4) picture in place from the colour space `icc` describes
 * to sRGB. pixels_len is the buffer's length; too short or a NULL/empty profile changes
 * nothing. Returns a pk_colour_outcome. */
int pk_colour_to_srgb(const uint8_t *icc, size_t icc_len, uint8_t *pixels, size_t pixels_len,
                      int width, int height, int channels);

/* A cached transform held by one caller: from `input` in the space of `icc` to sRGB.
 * NULL when the profile is refused (release nothing then). */
typedef struct pk_colour_xform pk_colour_xform;
pk_colour_xform *pk_colour_acquire(const uint8_t *icc, size_t icc_len, int input);
/* Converts `count` pixels from `in` (layout of the acquire) to `out` (RGB or RGBA). */
void pk_colour_run(pk_colour_xform *xform, const void *in, void *out, int count);
void pk_colour_release(pk_colour_xform *xform);

/* An RGB ICC profile for an nclx colour description (HEIF/AVIF `colr`): `primaries` as
 * ITU-T H.273 ColourPrimaries (1 BT.709, 9 BT.2020, 11 DCI-P3, 12 Display P3), with the sRGB
 * tone curve. Returns the serialised profile (malloc'd, release with pk_free) or NULL when
 * the primaries are sRGB's own (nothing to do) or unknown. */
uint8_t *pk_colour_nclx_profile(int primaries, size_t *out_len);

/* 1 when Little CMS may be given the profile: at most 4 MiB, 100 tags, every tag inside it,
 * mpet chains of at most 16 elements, curves of at most 65536 entries / 64 segments, CLUTs of
 * at most 2^21 points. A profile outside is never parsed by Little CMS (pk_colour_acquire
 * returns NULL: the picture shows as sRGB) and its hash is remembered as refused. */
int pk_colour_profile_bounded(const uint8_t *icc, size_t len);

/* Profiles refused by those bounds since start (for tests and the log). */
uint64_t pk_colour_refused_count(void);

/* Transforms in the cache now (for tests). */
int pk_colour_cached_count(void);

#endif
