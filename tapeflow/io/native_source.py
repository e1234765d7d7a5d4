"""The C source of the record readers' hot loops (built and loaded by tapeflow/io/native.py).

Plain C over byte buffers and int64 arrays (no Python API: the library links nothing but
libc).  Every read is bounded by the buffer it was given; a length that does not fit is
never followed.  Host byte order must be little-endian (TFRecord and protobuf fixed-width
values are little-endian and are copied as they are); native.py checks that.

Functions return what the Python side needs to give TensorFlow's errors itself: the C
code only finds *where* something is wrong, Python words the error (one place for the
messages, shared with the NumPy fallback).
"""

SOURCE = r"""
#define _GNU_SOURCE
#include <locale.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#ifdef __SSE4_2__
#include <nmmintrin.h>
#endif

/* Arrays arrive as NumPy array objects (ctypes' cheapest argument); their data pointer
   lies at TFN_DATA_OFFSET inside the object (compiler/array_abi.py, defined before this). */
typedef const void *ARR;
#define DATA(T, o) ((T *)*(void *const *)((const char *)(o) + TFN_DATA_OFFSET))

/* ---------------------------------------------------------------- CRC32C */
static uint32_t T8[8][256];
static locale_t c_locale;   /* numbers read with '.' whatever locale the process set */

int64_t tfn_init(void) {
    c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    if (c_locale == (locale_t)0) return -1;
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        T8[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++)
        for (int k = 1; k < 8; k++) T8[k][n] = (T8[k - 1][n] >> 8) ^ T8[0][T8[k - 1][n] & 0xFF];
    return 0;
}

/* slicing-by-8: the portable path (tested against the SSE4.2 one through tfn_crc32c) */
static uint32_t crc_table(const uint8_t *p, int64_t n, uint32_t c) {
    while (n >= 8) {
        uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        c = T8[7][lo & 0xFF] ^ T8[6][(lo >> 8) & 0xFF] ^ T8[5][(lo >> 16) & 0xFF] ^ T8[4][lo >> 24]
          ^ T8[3][p[4]] ^ T8[2][p[5]] ^ T8[1][p[6]] ^ T8[0][p[7]];
        p += 8; n -= 8;
    }
    while (n-- > 0) c = T8[0][(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c;
}

static uint32_t crc32c(const uint8_t *p, int64_t n, int use_table) {
    uint32_t c = 0xFFFFFFFFu;
#ifdef __SSE4_2__
    if (!use_table) {
        uint64_t c64 = c;
        while (n >= 8) { uint64_t v; memcpy(&v, p, 8); c64 = _mm_crc32_u64(c64, v); p += 8; n -= 8; }
        c = (uint32_t)c64;
        while (n-- > 0) c = _mm_crc32_u8(c, *p++);
        return c ^ 0xFFFFFFFFu;
    }
#endif
    (void)use_table;
    return crc_table(p, n, c) ^ 0xFFFFFFFFu;
}

uint32_t tfn_crc32c(const uint8_t *p, int64_t n, int64_t use_table) { return crc32c(p, n, (int)use_table); }

static uint32_t masked(uint32_t c) { return ((c >> 15) | (c << 17)) + 0xA282EAD8u; }

/* ---------------------------------------------------------------- TFRecord framing
   Scans whole records in buf[0:n): starts[k], lens[k] of each record's data (cap >= n/16+1).
   res[0] = bytes consumed (up to the first record not taken); res[1] = 0 (stopped at the
   end or inside a record's header), 1 (bad length CRC), 2 (bad data CRC), 3 (inside a
   record's data: res[2] is its length field, a uint64 the caller reads unsigned).
   Returns the number of records. */
int64_t tfn_scan_records(const uint8_t *buf, int64_t n, ARR starts_o, ARR lens_o, int64_t cap, ARR res_o) {
    int64_t *starts = DATA(int64_t, starts_o), *lens = DATA(int64_t, lens_o), *res = DATA(int64_t, res_o);
    int64_t pos = 0, k = 0;
    res[1] = 0; res[2] = 0;
    while (k < cap && n - pos >= 12) {
        uint64_t len; uint32_t lcrc, dcrc;
        memcpy(&len, buf + pos, 8); memcpy(&lcrc, buf + pos + 8, 4);
        if (masked(crc32c(buf + pos, 8, 0)) != lcrc) { res[1] = 1; break; }
        if (n - pos < 16 || len > (uint64_t)(n - pos - 16)) { res[1] = 3; res[2] = (int64_t)len; break; }
        memcpy(&dcrc, buf + pos + 12 + len, 4);
        if (masked(crc32c(buf + pos + 12, (int64_t)len, 0)) != dcrc) { res[1] = 2; break; }
        starts[k] = pos + 12; lens[k] = (int64_t)len; k++;
        pos += 16 + (int64_t)len;
    }
    res[0] = pos;
    return k;
}

/* ---------------------------------------------------------------- tf.train.Example
   Only the canonical encoding (what every protobuf library writes) is read here, exactly
   as example_parsing._fast_example reads it; for anything else tfn_index_examples returns
   the example's index + 1 and the whole batch goes to the Python decoder, whose results
   and errors are the reference.  So a hostile input can only cost speed. */

/* a varint in d[pos:end); -1 when it runs past end or past 64 bits */
static int64_t rd_varint(const uint8_t *d, int64_t pos, int64_t end, uint64_t *out) {
    uint64_t r = 0;
    for (int shift = 0; shift <= 63; shift += 7) {
        if (pos >= end) return -1;
        uint8_t b = d[pos++];
        r |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            if (shift == 63 && b > 1) return -1;
            *out = r;
            return pos;
        }
    }
    return -1;
}

/* a length in d[pos:end) that fits in what is left before lim; -1 otherwise */
static int64_t rd_len(const uint8_t *d, int64_t pos, int64_t end, int64_t lim, int64_t *out) {
    uint64_t v;
    pos = rd_varint(d, pos, end, &v);
    if (pos < 0 || v > (uint64_t)(lim - pos)) return -1;
    *out = (int64_t)v;
    return pos;
}

/* one Feature in d[s:e): kind (0 unset, 1 bytes, 2 float, 3 int64), count, payload span */
static int feature(const uint8_t *d, int64_t s, int64_t e, int8_t *kind, int64_t *count, int64_t *vs,
                   int64_t *ve) {
    int64_t n, pos, k, c = 0;
    uint64_t v;
    *count = 0; *vs = *ve = s; *kind = 0;
    if (s == e) return 0;
    uint8_t tag = d[s];
    if (tag != 0x0A && tag != 0x12 && tag != 0x1A) return -1;
    pos = rd_len(d, s + 1, e, e, &n);
    if (pos < 0 || pos + n != e) return -1;
    *kind = tag == 0x0A ? 1 : tag == 0x12 ? 2 : 3;
    *vs = pos; *ve = e;
    if (n == 0) return 0;
    if (tag == 0x0A) {
        while (pos < e) {
            if (d[pos] != 0x0A) return -1;
            pos = rd_len(d, pos + 1, e, e, &k);
            if (pos < 0) return -1;
            pos += k; c++;
        }
        *count = c;
        return 0;
    }
    if (d[pos] != 0x0A) return -1;
    pos = rd_len(d, pos + 1, e, e, &k);
    if (pos < 0 || pos + k != e) return -1;
    *vs = pos;
    if (tag == 0x12) {
        if (k % 4) return -1;
        *count = k / 4;
        return 0;
    }
    while (pos < e) {
        pos = rd_varint(d, pos, e, &v);
        if (pos < 0) return -1;
        c++;
    }
    *count = c;
    return 0;
}

/* data: the examples back to back, example i in data[offs[i]:offs[i+1]).  keys: the wanted
   names back to back, key j in keys[koffs[j]:koffs[j+1]).  Out, per [i*nk + j]: kind (0 also
   when absent), count, vs/ve (payload span).  Returns 0, or i + 1 for the first example
   not in the canonical encoding. */
int64_t tfn_index_examples(const uint8_t *data, ARR offs_o, int64_t nex, const uint8_t *keys, ARR koffs_o,
                           int64_t nk, ARR kind_o, ARR count_o, ARR vs_o, ARR ve_o) {
    const int64_t *offs = DATA(int64_t, offs_o), *koffs = DATA(int64_t, koffs_o);
    int8_t *kind = DATA(int8_t, kind_o);
    int64_t *count = DATA(int64_t, count_o), *vs = DATA(int64_t, vs_o), *ve = DATA(int64_t, ve_o);
    for (int64_t i = 0; i < nex; i++) {
        int64_t pos = offs[i], n = offs[i + 1], size, end;
        for (int64_t j = 0; j < nk; j++) { kind[i * nk + j] = 0; count[i * nk + j] = 0; }
        while (pos < n) {
            if (data[pos] != 0x0A) return i + 1;
            pos = rd_len(data, pos + 1, n, n, &size);
            if (pos < 0) return i + 1;
            end = pos + size;
            while (pos < end) {
                int64_t entry_end, ks, ke, vstart, vend;
                if (data[pos] != 0x0A) return i + 1;
                pos = rd_len(data, pos + 1, end, end, &size);
                if (pos < 0 || size == 0 || data[pos] != 0x0A) return i + 1;
                entry_end = pos + size;
                pos = rd_len(data, pos + 1, entry_end, entry_end, &size);
                if (pos < 0) return i + 1;
                ks = pos; ke = pos + size; pos = ke;
                if (pos == entry_end) {
                    vstart = vend = pos;
                } else {
                    if (data[pos] != 0x12) return i + 1;
                    pos = rd_len(data, pos + 1, entry_end, entry_end, &size);
                    if (pos < 0 || pos + size != entry_end) return i + 1;
                    vstart = pos; vend = pos + size;
                }
                pos = entry_end;
                for (int64_t j = 0; j < nk; j++) {
                    int64_t kl = koffs[j + 1] - koffs[j];
                    if (kl != ke - ks || memcmp(keys + koffs[j], data + ks, (size_t)kl)) continue;
                    int64_t at = i * nk + j;    /* a repeated key: the last entry wins (a map) */
                    if (feature(data, vstart, vend, kind + at, count + at, vs + at, ve + at)) return i + 1;
                    break;
                }
            }
        }
    }
    return 0;
}

/* The values of feature j (a column of the index) of the examples whose kind is `want`, in
   example order: floats copied, varints decoded (int64, two's complement), bytes as
   (start, length) pairs into data.  out holds sum(count) values (pairs for bytes). */
void tfn_gather(const uint8_t *data, int64_t nex, int64_t nk, int64_t j, int64_t want, ARR kind_o, ARR count_o,
                ARR vs_o, ARR ve_o, ARR out_o) {
    const int8_t *kind = DATA(int8_t, kind_o);
    const int64_t *count = DATA(int64_t, count_o), *vs = DATA(int64_t, vs_o), *ve = DATA(int64_t, ve_o);
    void *out = DATA(void, out_o);
    int64_t w = 0;
    for (int64_t i = 0; i < nex; i++) {
        int64_t at = i * nk + j, c = count[at], pos = vs[at], e = ve[at], len = 0;
        uint64_t v;
        if (kind[at] != want || c == 0) continue;
        if (want == 2) {
            memcpy((float *)out + w, data + pos, (size_t)c * 4);
        } else if (want == 3) {
            for (int64_t k = 0; k < c; k++) {
                v = 0;
                pos = rd_varint(data, pos, e, &v);
                ((int64_t *)out)[w + k] = (int64_t)v;
            }
        } else {
            for (int64_t k = 0; k < c; k++) {
                pos = rd_len(data, pos + 1, e, e, &len);
                ((int64_t *)out)[2 * (w + k)] = pos;
                ((int64_t *)out)[2 * (w + k) + 1] = len;
                pos += len;
            }
        }
        w += c;
    }
}
/* ---------------------------------------------------------------- CSV
   Splits records into fields by csv_fields.split_record's rules.  Record r is
   data[roffs[r]:roffs[r+1]).  Fields are copied (quotes undone) into buf (as long as data);
   field f is buf[fs[f]:fs[f]+fl[f]) and record r has nf[r] fields (fs, fl: room for
   bytes + records fields).  Returns the number of fields, or -(r + 1) for the first bad
   record r with *err = 1 (an unquoted field holds a quote, CR or LF), 2 (a quoted field
   does not end), 3 (a quote inside a quoted field is not doubled). */
int64_t tfn_csv_split(const uint8_t *data, ARR roffs_o, int64_t nrec, int64_t delim, int64_t quote, ARR buf_o,
                      ARR fs_o, ARR fl_o, ARR nf_o, ARR err_o) {
    const int64_t *roffs = DATA(int64_t, roffs_o);
    uint8_t *buf = DATA(uint8_t, buf_o);
    int64_t *fs = DATA(int64_t, fs_o), *fl = DATA(int64_t, fl_o), *nf = DATA(int64_t, nf_o), *err = DATA(int64_t, err_o);
    int64_t f = 0, w = 0;
    *err = 0;
    for (int64_t r = 0; r < nrec; r++) {
        int64_t i = roffs[r], n = roffs[r + 1], first = f;
        if (i < n) for (;;) {
            int64_t o = w;
            if (quote && data[i] == '"') {
                i++;
                for (;;) {
                    if (i >= n) { *err = 2; return -(r + 1); }
                    uint8_t c = data[i];
                    if (c == '"') {
                        if (i + 1 < n && data[i + 1] == '"') { buf[w++] = '"'; i += 2; continue; }
                        if (i + 1 < n && data[i + 1] != delim) { *err = 3; return -(r + 1); }
                        i++;
                        break;
                    }
                    buf[w++] = c; i++;
                }
            } else {
                while (i < n && data[i] != delim) {
                    uint8_t c = data[i++];
                    if (c == '\r' || c == '\n' || (quote && c == '"')) { *err = 1; return -(r + 1); }
                    buf[w++] = c;
                }
            }
            fs[f] = o; fl[f] = w - o; f++;
            if (i >= n) break;
            i++;                                   /* past the delimiter */
            if (i == n) { fs[f] = w; fl[f] = 0; f++; break; }   /* a trailing delimiter */
        }
        nf[r] = f - first;
    }
    return f;
}

static const double POW10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
                                  1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 11 || c == 12; }
static int digit(uint8_t c) { return c >= '0' && c <= '9'; }

/* Number columns: column c holds field first[r] + at[c] of each record r, parsed as kind[c]
   (0/1 float: a double into out; 2/3 int32/int64: an int64 into out; -1: a string column,
   skipped) into out[c * nrec + r].  st[c * nrec + r] = 0 when parsed here; 1 when csv_fields'
   per-field rules must decide (empty, na_value, out of range, or anything but plain decimal
   syntax between blanks). */
void tfn_csv_numbers(ARR buf_o, ARR fs_o, ARR fl_o, ARR first_o, int64_t nrec, ARR at_o, ARR kinds_o,
                     int64_t ncols, const uint8_t *na, int64_t nalen, ARR out_o, ARR st_o) {
    const uint8_t *buf = DATA(uint8_t, buf_o);
    const int64_t *fs = DATA(int64_t, fs_o), *fl = DATA(int64_t, fl_o), *first = DATA(int64_t, first_o);
    const int64_t *at = DATA(int64_t, at_o), *kinds = DATA(int64_t, kinds_o);
    int64_t *outi = DATA(int64_t, out_o);
    int8_t *st = DATA(int8_t, st_o);
    char tmp[64];
    for (int64_t c = 0; c < ncols; c++) for (int64_t r = 0; r < nrec; r++) {
        int64_t kind = kinds[c], k = c * nrec + r, f = first[r] + at[c];
        if (kind < 0) continue;
        const uint8_t *p = buf + fs[f];
        int64_t len = fl[f], a = 0, b = len;
        st[k] = 1;
        if (len == 0 || (len == nalen && memcmp(p, na, (size_t)len) == 0)) continue;
        while (a < b && blank(p[a])) a++;
        while (b > a && blank(p[b - 1])) b--;
        int64_t i = a;
        int neg = 0;
        if (i < b && (p[i] == '+' || p[i] == '-')) { neg = p[i] == '-'; i++; }
        if (kind >= 2) {
            uint64_t v = 0, lim = kind == 2 ? (uint64_t)2147483647 + neg : (uint64_t)9223372036854775807 + neg;
            int64_t d0 = i, bad = 0;
            for (; i < b; i++) {
                if (!digit(p[i])) { bad = 1; break; }
                uint64_t dgt = (uint64_t)(p[i] - '0');
                if (v > (lim - dgt) / 10) { bad = 1; break; }
                v = v * 10 + dgt;
            }
            if (bad || i == d0) continue;
            int64_t sv = neg ? (int64_t)(0 - v) : (int64_t)v;
            outi[k] = sv;
            st[k] = 0;
            continue;
        }
        int64_t nd = 0, sig = 0, e10 = 0, ev = 0;
        uint64_t m = 0;
        while (i < b && digit(p[i])) {
            if (m || p[i] != '0') { if (sig < 19) m = m * 10 + (uint64_t)(p[i] - '0'); else e10++; sig++; }
            i++; nd++;
        }
        if (i < b && p[i] == '.') {
            i++;
            while (i < b && digit(p[i])) {
                if (m || p[i] != '0') { if (sig < 19) { m = m * 10 + (uint64_t)(p[i] - '0'); e10--; } sig++; }
                else e10--;
                i++; nd++;
            }
        }
        if (nd == 0) continue;
        if (i < b && (p[i] == 'e' || p[i] == 'E')) {
            int eneg = 0;
            i++;
            if (i < b && (p[i] == '+' || p[i] == '-')) { eneg = p[i] == '-'; i++; }
            int64_t ne = 0;
            while (i < b && digit(p[i])) { if (ev < 100000) ev = ev * 10 + (p[i] - '0'); i++; ne++; }
            if (ne == 0) continue;
            e10 += eneg ? -ev : ev;
        }
        if (i != b) continue;
        double v;
        if (sig <= 15 && e10 >= -22 && e10 <= 22) {
            /* Clinger's fast path: m and 10^|e10| are exact doubles, so one IEEE operation
               gives the correctly rounded value, the same double strtod / float() give */
            v = e10 < 0 ? (double)m / POW10[-e10] : (double)m * POW10[e10];
            if (neg) v = -v;
        } else {
            if (b - a >= (int64_t)sizeof tmp) continue;
            memcpy(tmp, p + a, (size_t)(b - a));
            tmp[b - a] = 0;
            v = strtod_l(tmp, NULL, c_locale);   /* correctly rounded, as Python's float() */
        }
        memcpy(outi + k, &v, sizeof v);     /* the double's bits (out is one 8-byte buffer) */
        st[k] = 0;
    }
}
"""
