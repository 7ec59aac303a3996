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

/* Bounds on what Little CMS is given (issue 21 #2): it cannot be interrupted, and the cost
 * of building a transform grows with the stages it chains, the CLUT points it samples and the
 * curve segments it searches. Real profiles sit far below each (camera/display profiles: 0.5-
 * 60 kB, 10-20 tags; large CMYK printer profiles: 2-3 MB, 9-17^4 CLUTs, no mpet chains). */
#define PK_COLOUR_PROFILE_MAX (4u << 20)
#define PK_COLOUR_TAGS_MAX 100
#define PK_COLOUR_MPET_ELEMENTS_MAX 16
#define PK_COLOUR_CURVE_ENTRIES_MAX 65536
#define PK_COLOUR_CURVE_SEGMENTS_MAX 64
#define PK_COLOUR_CLUT_POINTS_MAX (1u << 21)
/* Refused profiles remembered by hash and length: a big refused one costs one hash next time. */
#define PK_COLOUR_REFUSED_MAX 64

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
static struct { uint64_t hash; size_t len; } pk_colour_refused[PK_COLOUR_REFUSED_MAX];
static int pk_colour_refused_next;
static uint64_t pk_colour_refusals;

static int pk_colour_is_refused_locked(uint64_t hash, size_t len) {
    for (int i = 0; i < PK_COLOUR_REFUSED_MAX; i++)
        if (pk_colour_refused[i].len == len && pk_colour_refused[i].hash == hash) return 1;
    return 0;
}

static void pk_colour_remember_refused_locked(uint64_t hash, size_t len) {
    if (pk_colour_is_refused_locked(hash, len)) return;
    pk_colour_refused[pk_colour_refused_next].hash = hash;
    pk_colour_refused[pk_colour_refused_next].len = len;
    pk_colour_refused_next = (pk_colour_refused_next + 1) % PK_COLOUR_REFUSED_MAX;
}

static uint64_t pk_colour_hash(const uint8_t *bytes, size_t len) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ bytes[i]) * 1099511628211ull;
    return h;
}

static uint32_t pk_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static uint32_t pk_be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* grid^inputs (the CLUT's points), saturating above the cap. */
static uint64_t pk_colour_clut_points(const uint8_t *grid, int inputs, int stride) {
    uint64_t points = 1;
    for (int i = 0; i < inputs; i++) {
        points *= grid[i * stride] ? grid[i * stride] : 1;
        if (points > PK_COLOUR_CLUT_POINTS_MAX) return PK_COLOUR_CLUT_POINTS_MAX + 1;
    }
    return points;
}

/* One mpet element (ICC.1:2010 11.2.1): segmented curves and CLUTs are bounded too. */
static int pk_colour_vet_element(const uint8_t *e, uint64_t size) {
    if (size < 12) return 0;
    uint32_t type = pk_be32(e);
    if (type == 0x636c7574u /* 'clut' */) {
        if (size < 28) return 0;
        return pk_colour_clut_points(e + 12, (int)(pk_be16(e + 8) > 16 ? 16 : pk_be16(e + 8)), 1) <=
               PK_COLOUR_CLUT_POINTS_MAX;
    }
    if (type == 0x63767374u /* 'cvst' */) {
        uint32_t channels = pk_be16(e + 8);
        if (channels > 16 || size < 12 + 8ull * channels) return 0;
        for (uint32_t c = 0; c < channels; c++) {
            uint64_t off = pk_be32(e + 12 + 8 * c);
            if (off + 12 > size) return 0;
            if (pk_be16(e + off + 8) > PK_COLOUR_CURVE_SEGMENTS_MAX) return 0;
        }
    }
    return 1;
}

/* The tag data at `t` (`size` bytes, inside the profile): 1 when its cost is bounded. */
static int pk_colour_vet_tag(const uint8_t *t, uint64_t size) {
    if (size < 12) return 1; /* too short to be a costly type; Little CMS judges the rest */
    switch (pk_be32(t)) {
    case 0x6d706574u: { /* 'mpet' */
        if (size < 16) return 0;
        uint32_t count = pk_be32(t + 12);
        if (count > PK_COLOUR_MPET_ELEMENTS_MAX || size < 16 + 8ull * count) return 0;
        for (uint32_t i = 0; i < count; i++) {
            uint64_t off = pk_be32(t + 16 + 8 * i), len = pk_be32(t + 20 + 8 * i);
            if (off > size || len > size - off || !pk_colour_vet_element(t + off, len)) return 0;
        }
        return 1;
    }
    case 0x63757276u: /* 'curv' */
        return pk_be32(t + 8) <= PK_COLOUR_CURVE_ENTRIES_MAX;
    case 0x6d667431u: /* 'mft1' */
    case 0x6d667432u: /* 'mft2' */
        if (size < 52) return 0;
        if (pk_be32(t) == 0x6d667432u &&
            (pk_be16(t + 48) > PK_COLOUR_CURVE_ENTRIES_MAX || pk_be16(t + 50) > PK_COLOUR_CURVE_ENTRIES_MAX))
            return 0;
        { /* grid^inputs, one grid for every input */
            uint8_t grid[16];
            int inputs = t[8] > 16 ? 16 : t[8];
            memset(grid, t[10], sizeof grid);
            return pk_colour_clut_points(grid, inputs, 1) <= PK_COLOUR_CLUT_POINTS_MAX;
        }
    case 0x6d414220u: /* 'mAB ' */
    case 0x6d424120u: { /* 'mBA ' */
        if (size < 32) return 0;
        uint64_t clut = pk_be32(t + 24);
        if (clut == 0) return 1;
        if (clut + 20 > size) return 0;
        return pk_colour_clut_points(t + clut, t[8] > 16 ? 16 : t[8], 1) <= PK_COLOUR_CLUT_POINTS_MAX;
    }
    default:
        return 1;
    }
}

/* 1 when the profile's size, tag table and costly tags are within the bounds above: read from
 * the bytes before Little CMS parses anything (microseconds; every offset checked). */
int pk_colour_profile_bounded(const uint8_t *icc, size_t len) {
    if (!icc || len < 132 || len > PK_COLOUR_PROFILE_MAX) return 0;
    uint32_t tags = pk_be32(icc + 128);
    if (tags > PK_COLOUR_TAGS_MAX || 132ull + 12ull * tags > len) return 0;
    for (uint32_t i = 0; i < tags; i++) {
        const uint8_t *entry = icc + 132 + 12 * i;
        uint64_t off = pk_be32(entry + 4), size = pk_be32(entry + 8);
        if (off > len || size > len - off) return 0;
        if (!pk_colour_vet_tag(icc + off, size)) return 0;
    }
    return 1;
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
    if (pk_colour_is_refused_locked(hash, icc_len)) {
        pthread_mutex_unlock(&pk_colour_lock);
        return NULL;
    }
    pk_colour_xform *found = pk_colour_lookup_locked(icc, icc_len, hash, input);
    if (found) {
        found->last_use = ++pk_colour_clock;
        if (found->transform) found->holders++;
        pthread_mutex_unlock(&pk_colour_lock);
        return found->transform ? found : NULL;
    }
    pthread_mutex_unlock(&pk_colour_lock);

    if (!pk_colour_profile_bounded(icc, icc_len)) {
        /* Shown without colour management rather than holding a worker for seconds. */
        pthread_mutex_lock(&pk_colour_lock);
        pk_colour_remember_refused_locked(hash, icc_len);
        pk_colour_refusals++;
        pthread_mutex_unlock(&pk_colour_lock);
        return NULL;
    }

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
    if (!made->transform) pk_colour_remember_refused_locked(hash, icc_len);
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

uint64_t pk_colour_refused_count(void) {
    pthread_mutex_lock(&pk_colour_lock);
    uint64_t n = pk_colour_refusals;
    pthread_mutex_unlock(&pk_colour_lock);
    return n;
}
