/* native_internal.h - what the native_functions.yaml loader's files share:
 * the loaded file, the small yaml node tree the reader builds, and the
 * position helpers. Not public. */
#ifndef TA_NATIVE_INTERNAL_H
#define TA_NATIVE_INTERNAL_H

#include <stdarg.h>

#include "base/map.h"
#include "tensoralias/native.h"

/* ---- yaml nodes (native_yaml.c) ---------------------------------------- */

typedef enum yn_kind { YN_SCALAR, YN_SEQ, YN_MAP, YN_ALIAS } yn_kind;

/* A plain scalar resolves to one of these, as PyYAML's (YAML 1.1) resolver
 * does; a quoted or block scalar is always a string. */
typedef enum yn_type { YT_STR, YT_NULL, YT_BOOL, YT_INT, YT_FLOAT } yn_type;

typedef struct ynode ynode;
struct ynode {
    yn_kind kind;
    yn_type type;       /* scalars */
    bool bval;          /* YT_BOOL */
    bool plain;         /* plain scalar: its text is the bytes at pos */
    const char *text;   /* scalars: NUL-terminated (reader's memory) */
    uint32_t len;
    ta_native_pos pos;  /* start; len covers the node when on one line */
    ynode *first;       /* SEQ: items; MAP: key, value, key, value ... */
    ynode *next;
    uint32_t n;         /* SEQ: items; MAP: pairs */
};

typedef struct ta_yaml_src {
    const char *text;   /* the file text (NUL-terminated) */
    size_t len;
    const char *source; /* name for diagnostics */
} ta_yaml_src;

/* What ta_yaml_read calls. A node (and its scalars' text) lives only until
 * the call returns: the reader reuses the memory for the next item, so
 * loading a large file needs memory for one entry's tree only. A non-OK
 * return stops the reading and is returned by ta_yaml_read. */
typedef struct ta_yaml_handler {
    void *ctx;
    /* The root is a sequence: once, with the sequence node (no children). */
    ta_status (*begin_seq)(void *ctx, const ynode *seq);
    /* Each item of the root sequence, in order. */
    ta_status (*item)(void *ctx, const ynode *item);
    /* The root is not a sequence (whole tree), or NULL when there is none. */
    ta_status (*other_root)(void *ctx, const ynode *root);
} ta_yaml_handler;

/* Reads the one document of src and calls h. On a yaml syntax error adds a
 * "yaml-syntax" diagnostic and returns TA_ERR_PARSE (items before the error
 * have been seen). Nesting deeper than a fixed limit is reported
 * ("yaml-too-deep") and ends the reading, as a syntax error does. */
ta_status ta_yaml_read(const ta_yaml_src *src, const ta_yaml_handler *h,
                       ta_diags *diags);
/* The same from libyaml's event API alone: ta_yaml_read reads most files
 * from tokens and falls back to this; tests compare the two. */
ta_status ta_yaml_read_events(const ta_yaml_src *src, const ta_yaml_handler *h,
                              ta_diags *diags);
/* ta_yaml_read, saying whether it fell back to the event path (tests). */
ta_status ta_yaml_read_ex(const ta_yaml_src *src, const ta_yaml_handler *h,
                          ta_diags *diags, bool *fell_back);

const char *ta_yaml_type_name(const ynode *n); /* "a string", "a list" ... */

/* The position of byte off of src, counted from `from`, the position of a
 * byte at or before it: lines as libyaml counts them (a "\r\n" is one
 * break; "\r", "\n", NEL, LS and PS are one each), the column in bytes
 * since the last "\n" or "\r"; len as given. */
ta_native_pos ta_yaml_pos_from(const ta_yaml_src *src, ta_native_pos from, uint32_t off,
                               uint32_t len);
/* Where pos is in src, with its source line (pointing into src->text) so
 * the renderer can draw a caret. */
ta_loc ta_yaml_loc(const ta_yaml_src *src, ta_native_pos pos);
/* ta_diag_vemit at pos, then the hint (when not NULL): the reader's and the
 * loader's reports, whose hints are fixed sentences. */
ta_status ta_yaml_vreport(const ta_yaml_src *src, ta_diags *diags, ta_severity sev,
                          const char *rule, ta_native_pos pos, const char *hint,
                          const char *fmt, va_list ap);

/* ---- the loaded file --------------------------------------------------- */

typedef struct ta_native_stream ta_native_stream;

struct ta_native_file {
    ta_arena *arena;       /* the entries (of a window: reset for each) */
    ta_arena *fixed;       /* what lives as long as the file (source names,
                            * tags): arena itself, but a window's own */
    ta_native_stream *stream; /* a window of a streaming check, or NULL */
    uint32_t base;         /* a window's first entry's yaml index (else 0) */
    ta_yaml_src src;       /* text is an arena copy, or one of kept */
    ta_yaml_src tags_src;
    char *kept[2];         /* texts the file owns (ta_native_load_path's) */
    int nkept;
    ta_native_func *funcs; /* malloc'd, grown while loading */
    uint32_t nfuncs;
    size_t funcs_cap;
    bool has_tags;
    const char **tags;     /* from tags.yaml */
    uint32_t ntags;
    size_t tags_cap;
    ta_map index;          /* full_name ("ns::name.overload") -> first entry
                            * (a window's stays empty: see the stream's) */
    /* The entries whose name an earlier entry has, in yaml order, as pairs
     * (entry, line of the first entry of that name), found while indexing:
     * the overload check reads them instead of looking every name up
     * again. A window's first entry may be in an earlier window. */
    uint32_t *dups;
    uint32_t ndups; /* pairs */
    size_t dups_cap;
};

/* native_names.c: the ta_native_key named k (a C string), or -1. */
int ta_native_key_id(const char *k);
/* native_names.c: the library's own spelling (a static string) of a
 * dispatch key torchgen knows, key[0..len); NULL for any other key. */
const char *ta_dispatch_key_name(const char *key, size_t len);
/* native_names.c: "did you mean" helpers (NULL when nothing is close). */
const char *ta_native_closest(const char *s, size_t len,
                              const char *const *names, size_t n);
const char *ta_native_closest_key(const char *s, size_t len);
const char *ta_native_closest_dispatch_key(const char *s, size_t len);

/* native_lookup.c: the name index, filled as entries are read. */
ta_status ta_native_index_reserve(ta_native_file *f, size_t n);
ta_status ta_native_index_add(ta_native_file *f, uint32_t i);
/* Notes f's entry i as the later of two of one name, the first on line
 * first_line (for the overload check). */
ta_status ta_native_note_dup(ta_native_file *f, uint32_t i, uint32_t first_line);
/* By namespace and name; ns NULL (nslen 0): name is the full name. */
const ta_native_func *ta_native_find_in(const ta_native_file *f, const char *ns,
                                        size_t nslen, const char *name, size_t len);

/* What fn's structured_delegate (del, without a namespace) names: *found
 * and *structured (the first function of that name's flag). In a window of
 * a streaming check a name not read yet is recorded and *later set: the
 * stream reports it at the end (ta_native_delegate_report). */
ta_status ta_native_delegate_target(const ta_native_file *f, const ta_native_func *fn,
                                    const ta_native_str *del, bool *found, bool *structured,
                                    bool *later);

/* native_passes.c: the delegate-unknown or delegate-not-structured error
 * (if any) for a structured_delegate `name` written at pos. */
ta_status ta_native_delegate_report(const ta_native_file *f, ta_diags *d, ta_native_pos pos,
                                    const char *name, bool found, bool structured);

/* ---- the streaming check (native_stream.c) ----------------------------- */

/* native_load.c: ta_native_load_buffer and ta_native_load_path into a
 * window view of stream: the entries are handed to ta_native_stream_flush
 * every window's worth, and the last ones are left in *out (the view) for
 * the caller to flush. */
ta_status ta_native_load_window_buffer(const char *text, size_t len, const char *source,
                                       const char *tags_text, size_t tags_len,
                                       const char *tags_source, ta_native_stream *stream,
                                       ta_native_file **out, ta_diags *diags);
ta_status ta_native_load_window_path(const char *path, const char *tags_path,
                                     ta_native_stream *stream, ta_native_file **out,
                                     ta_diags *diags);
/* Entries per window. */
uint32_t ta_native_stream_window(const ta_native_stream *s);
/* Room in the name index for the entries of text[0..len) (a guess:
 * growing the table later would hold the old one and the new at once). */
ta_status ta_native_stream_reserve(ta_native_stream *s, const char *text, size_t len);
/* Indexes w's entry i (its name, its line, its structured flag) for the
 * whole stream, noting a duplicate name in w->dups. */
ta_status ta_native_stream_index(ta_native_stream *s, ta_native_file *w, uint32_t i);
/* Runs the stages over w's entries, then empties w for the next window. */
ta_status ta_native_stream_flush(ta_native_stream *s, ta_native_file *w, ta_diags *diags);
/* The stream's answer for a delegate lookup (ta_native_delegate_target). */
ta_status ta_native_stream_delegate(ta_native_stream *s, const ta_native_func *fn,
                                    const ta_native_str *del, bool *found, bool *structured,
                                    bool *later);

#endif
