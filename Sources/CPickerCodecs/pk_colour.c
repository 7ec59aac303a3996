/*
 * Colour management with Little CMS 2: embedded ICC profiles to sRGB, transforms cached
 * per profile. See include/pk_colour.h for the intent and why.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <lcms2.h>

#include "CPickerCodecs.h"
#include "pk_internal.h"

/* Profiles larger than this are converted without being cached (a copy is kept to compare). */
#define PK_COLOUR_CACHE_PROFILE_MAX (1u << 20)

struct pk_colour_xform {
    uint8_t *icc;            /* the profile's bytes (the cache key, compared whole) */
    size_t icc_len;
    uint64_t hash;
    int input;
    cmsHTRANSFORM transform; /* NULL: the profile was refused (cached as such) */
    int identity;            /* an sRGB profile (within 1/255 on a 9x9x9 grid): no pixel work */
    int holders;             /* callers using it, plus one while it is in the cache */
    uint64_t last_use;
};

static pthread_mutex_t pk_colour_lock = PTHREAD_MUTEX_INITIALIZER;
static pk_colour_xform *pk_colour_cache[PK_COLOUR_CACHE_MAX];
static uint64_t pk_colour_clock;

static uint64_t pk_colour_hash(const uint8_t *bytes, size_t len) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ bytes[i]) * 1099511628211ull;
    return h;
}

static cmsUInt32Number pk_colour_lcms_format(int input) {
    switch (input) {
    case PK_COLOUR_IN_RGBA: return TYPE_RGBA_8;
    case PK_COLOUR_IN_CMYK: return TYPE_CMYK_8;
    case PK_COLOUR_IN_CMYK_INV: return TYPE_CMYK_8_REV;
    default: return TYPE_RGB_8;
    }
}

/* Little CMS reports a refused profile through its error handler as well as by returning
 * NULL; the NULL is what we act on, so its messages are dropped. */
static void pk_colour_quiet(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context; (void)code; (void)text;
}

static void pk_colour_setup(void) { cmsSetLogErrorHandler(pk_colour_quiet); }

/* The transform to sRGB, or NULL when Little CMS refuses the profile or it does not
 * describe the input's colour space (an RGB picture with a CMYK or grey profile). */
static cmsHTRANSFORM pk_colour_create(const uint8_t *icc, size_t icc_len, int input) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, pk_colour_setup);
    if (icc_len > 0xFFFFFFFFu) return NULL;
    cmsHPROFILE source = cmsOpenProfileFromMem(icc, (cmsUInt32Number)icc_len);
    if (!source) return NULL;
    int cmyk = input == PK_COLOUR_IN_CMYK || input == PK_COLOUR_IN_CMYK_INV;
    cmsColorSpaceSignature space = cmsGetColorSpace(source);
    cmsProfileClassSignature class = cmsGetDeviceClass(source);
    if (space != (cmyk ? cmsSigCmykData : cmsSigRgbData) || class == cmsSigLinkClass ||
        class == cmsSigAbstractClass || class == cmsSigNamedColorClass) {
        cmsCloseProfile(source);
        return NULL;
    }
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    cmsHTRANSFORM transform = NULL;
    if (srgb) {
        int rgba = input == PK_COLOUR_IN_RGBA;
        transform = cmsCreateTransform(source, pk_colour_lcms_format(input), srgb,
                                       rgba ? TYPE_RGBA_8 : TYPE_RGB_8, INTENT_PERCEPTUAL,
                                       rgba ? cmsFLAGS_COPY_ALPHA : 0);
        cmsCloseProfile(srgb);
    }
    cmsCloseProfile(source);
    return transform;
}

/* True when the transform changes no RGB value by more than 1/255 on a 9x9x9 grid: the profile
 * is sRGB (most camera JPEGs embed one), and converting would cost time for nothing. */
static int pk_colour_is_identity(cmsHTRANSFORM transform, int input) {
    if (input != PK_COLOUR_IN_RGB && input != PK_COLOUR_IN_RGBA) return 0;
    enum { STEPS = 9, COUNT = STEPS * STEPS * STEPS };
    uint8_t in[COUNT * 4], out[COUNT * 4];
    int channels = input == PK_COLOUR_IN_RGBA ? 4 : 3, i = 0;
    for (int r = 0; r < STEPS; r++)
        for (int g = 0; g < STEPS; g++)
            for (int b = 0; b < STEPS; b++, i++) {
                uint8_t *p = in + i * channels;
                p[0] = (uint8_t)(r * 255 / (STEPS - 1));
                p[1] = (uint8_t)(g * 255 / (STEPS - 1));
                p[2] = (uint8_t)(b * 255 / (STEPS - 1));
                if (channels == 4) p[3] = 255;
            }
    cmsDoTransform(transform, in, out, COUNT);
    for (int k = 0; k < COUNT * channels; k++)
        if (abs((int)in[k] - (int)out[k]) > 1) return 0;
    return 1;
}

static void pk_colour_free(pk_colour_xform *x) {
    if (x->transform) cmsDeleteTransform(x->transform);
    free(x->icc);
    free(x);
}

/* Drops one hold; the last one frees. Called with the lock held. */
static void pk_colour_drop_locked(pk_colour_xform *x) {
    if (--x->holders == 0) pk_colour_free(x);
}

/* Puts x in the cache (replacing the least recently used entry). Lock held. */
static void pk_colour_insert_locked(pk_colour_xform *x) {
    int slot = 0;
    for (int i = 0; i < PK_COLOUR_CACHE_MAX; i++) {
        if (!pk_colour_cache[i]) { slot = i; break; }
        if (pk_colour_cache[i]->last_use < pk_colour_cache[slot]->last_use) slot = i;
    }
    if (pk_colour_cache[slot]) pk_colour_drop_locked(pk_colour_cache[slot]);
    x->holders++;
    pk_colour_cache[slot] = x;
}

static pk_colour_xform *pk_colour_lookup_locked(const uint8_t *icc, size_t icc_len, uint64_t hash,
                                                int input) {
    for (int i = 0; i < PK_COLOUR_CACHE_MAX; i++) {
        pk_colour_xform *x = pk_colour_cache[i];
        if (x && x->hash == hash && x->input == input && x->icc_len == icc_len &&
            memcmp(x->icc, icc, icc_len) == 0)
            return x;
    }
    return NULL;
}

pk_colour_xform *pk_colour_acquire(const uint8_t *icc, size_t icc_len, int input) {
    if (!icc || icc_len == 0 || input < PK_COLOUR_IN_RGB || input > PK_COLOUR_IN_CMYK_INV) return NULL;
    uint64_t hash = pk_colour_hash(icc, icc_len);
    pthread_mutex_lock(&pk_colour_lock);
    pk_colour_xform *found = pk_colour_lookup_locked(icc, icc_len, hash, input);
    if (found) {
        found->last_use = ++pk_colour_clock;
        if (found->transform) found->holders++;
        pthread_mutex_unlock(&pk_colour_lock);
        return found->transform ? found : NULL;
    }
    pthread_mutex_unlock(&pk_colour_lock);

    /* Built outside the lock: a large profile must not stall every other decode. Two
     * threads may build the same one; the second finds the first in the cache and
     * keeps its own only for this call. */
    pk_colour_xform *made = calloc(1, sizeof *made);
    uint8_t *copy = made ? malloc(icc_len) : NULL;
    if (!made || !copy) {
        free(made);
        free(copy);
        return NULL;
    }
    memcpy(copy, icc, icc_len);
    made->icc = copy;
    made->icc_len = icc_len;
    made->hash = hash;
    made->input = input;
    made->transform = pk_colour_create(icc, icc_len, input);
    made->identity = made->transform && pk_colour_is_identity(made->transform, input);
    made->holders = made->transform ? 1 : 0; /* the caller's hold */

    pthread_mutex_lock(&pk_colour_lock);
    made->last_use = ++pk_colour_clock;
    if (icc_len <= PK_COLOUR_CACHE_PROFILE_MAX && !pk_colour_lookup_locked(icc, icc_len, hash, input))
        pk_colour_insert_locked(made);
    pk_colour_xform *result = made->transform ? made : NULL;
    if (made->holders == 0) pk_colour_free(made); /* refused and not cached */
    pthread_mutex_unlock(&pk_colour_lock);
    return result;
}

void pk_colour_run(pk_colour_xform *xform, const void *in, void *out, int count) {
    if (!xform || !xform->transform || count <= 0) return;
    if (xform->identity) {
        if (in != out) memcpy(out, in, (size_t)count * (xform->input == PK_COLOUR_IN_RGBA ? 4 : 3));
        return;
    }
    cmsDoTransform(xform->transform, in, out, (cmsUInt32Number)count);
}

void pk_colour_release(pk_colour_xform *xform) {
    if (!xform) return;
    pthread_mutex_lock(&pk_colour_lock);
    pk_colour_drop_locked(xform);
    pthread_mutex_unlock(&pk_colour_lock);
}

int pk_colour_to_srgb(const uint8_t *icc, size_t icc_len, uint8_t *pixels, size_t pixels_len,
                      int width, int height, int channels) {
    if (!icc || icc_len == 0) return PK_COLOUR_NONE;
    if ((channels != 3 && channels != 4) || !pixels || !pk_buffer_holds(pixels_len, width, height, channels))
        return PK_COLOUR_NONE;
    pk_colour_xform *x = pk_colour_acquire(icc, icc_len, channels == 4 ? PK_COLOUR_IN_RGBA : PK_COLOUR_IN_RGB);
    if (!x) return PK_COLOUR_IGNORED;
    if (x->identity) {
        pk_colour_release(x);
        return PK_COLOUR_CONVERTED;
    }
    /* In place, row by row: input and output layouts are the same. */
    size_t stride = (size_t)width * (size_t)channels;
    for (int y = 0; y < height; y++) {
        uint8_t *row = pixels + (size_t)y * stride;
        pk_colour_run(x, row, row, width);
    }
    pk_colour_release(x);
    return PK_COLOUR_CONVERTED;
}

/* CIE xy of red, green, blue for the H.273 ColourPrimaries we know; 0 when unknown. */
static int pk_colour_primaries(int primaries, cmsCIExyYTRIPLE *out, cmsCIExyY *white) {
    cmsCIExyY d65 = {0.3127, 0.3290, 1.0};
    *white = d65;
    switch (primaries) {
    case 9: /* BT.2020 / BT.2100 */
        *out = (cmsCIExyYTRIPLE){{0.708, 0.292, 1.0}, {0.170, 0.797, 1.0}, {0.131, 0.046, 1.0}};
        return 1;
    case 11: /* DCI-P3 (SMPTE RP 431-2), its own white */
        *out = (cmsCIExyYTRIPLE){{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}};
        *white = (cmsCIExyY){0.314, 0.351, 1.0};
        return 1;
    case 12: /* Display P3 (SMPTE EG 432-1) */
        *out = (cmsCIExyYTRIPLE){{0.680, 0.320, 1.0}, {0.265, 0.690, 1.0}, {0.150, 0.060, 1.0}};
        return 1;
    default:
        return 0;
    }
}

uint8_t *pk_colour_nclx_profile(int primaries, size_t *out_len) {
    if (out_len) *out_len = 0;
    cmsCIExyYTRIPLE rgb;
    cmsCIExyY white;
    if (!out_len || !pk_colour_primaries(primaries, &rgb, &white)) return NULL;
    /* The sRGB tone curve (IEC 61966-2-1, parametric type 4). */
    cmsFloat64Number params[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, params);
    if (!curve) return NULL;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &rgb, curves);
    cmsFreeToneCurve(curve);
    if (!profile) return NULL;
    cmsUInt32Number size = 0;
    uint8_t *bytes = NULL;
    if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0 && (bytes = malloc(size)) &&
        cmsSaveProfileToMem(profile, bytes, &size)) {
        *out_len = size;
    } else {
        free(bytes);
        bytes = NULL;
    }
    cmsCloseProfile(profile);
    return bytes;
}

int pk_colour_cached_count(void) {
    int n = 0;
    pthread_mutex_lock(&pk_colour_lock);
    for (int i = 0; i < PK_COLOUR_CACHE_MAX; i++) n += pk_colour_cache[i] != NULL;
    pthread_mutex_unlock(&pk_colour_lock);
    return n;
}
