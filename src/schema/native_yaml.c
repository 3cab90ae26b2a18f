/* native_yaml.c - reads one yaml document into a small node tree, from
 * libyaml's token API for the plain block/flow subset PyTorch's files use
 * (skipping libyaml's event layer) and from its event API for anything else,
 * resolving plain scalars the way PyYAML does (so
 * `structured: True` is a bool and `structured: maybe` a string, as torchgen
 * sees them), and turns libyaml's positions into 1-based lines and byte
 * columns. Knows nothing about native_functions.yaml. */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/arena.h"
#include "schema/native_internal.h"

enum { MAX_DEPTH = 64 };

typedef struct reader {
    yaml_parser_t p;
    const ta_yaml_src *src;
    ta_arena *scratch; /* one entry's tree: reset after each item, its memory kept warm */
    ta_diags *diags;
    size_t base;              /* bytes of a UTF-8 BOM libyaml skipped */
    bool ascii;               /* then libyaml's char index is a byte offset */
    size_t cur_idx, cur_off;  /* char index -> byte offset cursor */
    ta_status st;
    /* The token path's one token of lookahead. */
    yaml_token_t tk;
    bool has_tk;
    /* The event path after the token path gave up: begin_seq was called
     * already; the first `skip` root items were handed over already. */
    bool began;
    size_t skip;
} reader;

/* libyaml counts characters; diagnostics want bytes. Marks come in almost
 * monotonic order, so a cursor that restarts when it must go back is linear. */
static size_t idx_to_off(reader *r, size_t idx)
{
    if (r->ascii) {
        size_t off = r->base + idx;
        return off > r->src->len ? r->src->len : off;
    }
    if (idx < r->cur_idx) {
        r->cur_idx = 0;
        r->cur_off = r->base;
    }
    const unsigned char *t = (const unsigned char *)r->src->text;
    while (r->cur_idx < idx && r->cur_off < r->src->len) {
        unsigned char c = t[r->cur_off];
        size_t w = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        r->cur_off += w;
        r->cur_idx++;
    }
    if (r->cur_off > r->src->len) r->cur_off = r->src->len;
    return r->cur_off;
}

static ta_native_pos off_pos(const ta_yaml_src *src, size_t off, uint32_t line)
{
    size_t s = off;
    while (s > 0 && src->text[s - 1] != '\n' && src->text[s - 1] != '\r') s--;
    ta_native_pos p = {line, (uint32_t)(off - s + 1), (uint32_t)off, 0};
    return p;
}

ta_native_pos ta_yaml_pos_from(const ta_yaml_src *src, ta_native_pos from, uint32_t off,
                               uint32_t len)
{
    const unsigned char *t = (const unsigned char *)src->text;
    size_t end = off < src->len ? off : src->len;
    uint32_t line = from.line;
    for (size_t i = from.off; i < end; i++) {
        if (t[i] == '\n' || (t[i] == '\r' && (i + 1 >= src->len || t[i + 1] != '\n')))
            line++;
        else if (t[i] == 0xC2 && i + 1 < end && t[i + 1] == 0x85) /* NEL */
            line++, i++;
        else if (t[i] == 0xE2 && i + 2 < end && t[i + 1] == 0x80 && (t[i + 2] | 1) == 0xA9)
            line++, i += 2; /* LS, PS */
    }
    ta_native_pos p = off_pos(src, end, line);
    p.len = len;
    return p;
}

static ta_native_pos mark_pos(reader *r, yaml_mark_t start, yaml_mark_t end)
{
    size_t off = idx_to_off(r, start.index);
    ta_native_pos p;
    if (r->ascii && start.column < off + 1 && off == r->base + start.index) {
        /* In ASCII text libyaml's column counts the bytes since the last line
         * break ("\n", "\r" or "\r\n"), which is what off_pos walks back
         * to find: take it rather than walk back for every node. */
        p = (ta_native_pos){(uint32_t)start.line + 1, (uint32_t)start.column + 1, (uint32_t)off, 0};
#ifdef TA_CHECK_COLUMNS
        ta_native_pos q = off_pos(r->src, off, (uint32_t)start.line + 1);
        if (q.col != p.col || q.off != p.off) abort();
#endif
    } else {
        p = off_pos(r->src, off, (uint32_t)start.line + 1);
    }
    if (end.line == start.line && end.index >= start.index) {
        size_t eoff = idx_to_off(r, end.index);
        p.len = (uint32_t)(eoff - off);
    }
    return p;
}

ta_loc ta_yaml_loc(const ta_yaml_src *src, ta_native_pos pos)
{
    ta_loc at = {src->source, pos.line, pos.col, pos.len ? pos.len : 1, NULL, 0};
    /* The source line, so the renderer can draw a caret under pos. */
    if (pos.line && src->text && pos.off <= src->len) {
        size_t back = pos.col ? pos.col - 1 : 0;
        size_t s = back <= pos.off ? pos.off - back : 0;
        /* The line ends at the first '\n' or '\r': found with memchr, as
         * thousands of diagnostics may point into one 100 KB line. */
        const char *nl = memchr(src->text + pos.off, '\n', src->len - pos.off);
        size_t e = nl ? (size_t)(nl - src->text) : src->len;
        const char *cr = memchr(src->text + pos.off, '\r', e - pos.off);
        if (cr) e = (size_t)(cr - src->text);
        at.line_text = src->text + s;
        at.line_len = (uint32_t)(e - s);
    }
    return at;
}

ta_status ta_yaml_vreport(const ta_yaml_src *src, ta_diags *diags, ta_severity sev,
                          const char *rule, ta_native_pos pos, const char *hint,
                          const char *fmt, va_list ap)
{
    ta_loc at = ta_yaml_loc(src, pos);
    ta_status st = ta_diag_vemit(diags, sev, &at, rule, fmt, ap);
    return st == TA_OK && hint ? ta_diag_hint(diags, "%s", hint) : st;
}

static void report(reader *r, const char *rule, ta_native_pos pos,
                   const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void report(reader *r, const char *rule, ta_native_pos pos,
                   const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ta_status st = ta_yaml_vreport(r->src, r->diags, TA_SEV_ERROR, rule, pos,
                                  hint, fmt, ap);
    va_end(ap);
    if (st != TA_OK) r->st = st;
}

static bool next_event(reader *r, yaml_event_t *ev)
{
    if (yaml_parser_parse(&r->p, ev)) return true;
    ta_native_pos pos;
    if (r->p.error == YAML_READER_ERROR) {
        /* Encoding problems carry a byte offset, not a mark. */
        size_t off = r->p.problem_offset > r->src->len ? r->src->len
                                                       : r->p.problem_offset;
        uint32_t line = 1;
        for (size_t i = 0; i < off; i++)
            line += r->src->text[i] == '\n';
        pos = off_pos(r->src, off, line);
    } else {
        pos = mark_pos(r, r->p.problem_mark, r->p.problem_mark);
    }
    const char *problem = r->p.problem ? r->p.problem : "invalid yaml";
    if (r->p.context && r->p.error != YAML_READER_ERROR) {
        /* Point at the problem; say in the hint where the construct began. */
        ta_native_pos at = mark_pos(r, r->p.context_mark, r->p.context_mark);
        char hint[160];
        snprintf(hint, sizeof hint, "%s that starts at line %u, column %u",
                 r->p.context, at.line, at.col);
        report(r, "yaml-syntax", pos, hint, "%s %s", problem, r->p.context);
    } else {
        report(r, "yaml-syntax", pos, NULL, "%s", problem);
    }
    if (r->st == TA_OK) r->st = TA_ERR_PARSE;
    return false;
}

/* ---- PyYAML's implicit resolution of plain scalars --------------------- */

static bool one_of(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(s, *list)) return true;
    return false;
}

static bool digits(const char **p, const char *set)
{
    const char *s = *p;
    while (**p && strchr(set, **p)) (*p)++;
    return *p > s;
}

static bool is_int(const char *s)
{
    const char *p = s;
    if (*p == '-' || *p == '+') p++;
    if (p[0] == '0' && p[1] == 'b') {
        p += 2;
        return digits(&p, "01_") && !*p;
    }
    if (p[0] == '0' && p[1] == 'x') {
        p += 2;
        return digits(&p, "0123456789abcdefABCDEF_") && !*p;
    }
    if (p[0] == '0') {
        p++;
        digits(&p, "01234567_");
        return !*p;
    }
    if (*p < '1' || *p > '9') return false;
    digits(&p, "0123456789_");
    /* base 60: 1:30 */
    while (*p == ':') {
        p++;
        const char *q = p;
        digits(&p, "0123456789");
        if (p == q || p - q > 2 || (p - q == 2 && q[0] > '5')) return false;
    }
    return !*p;
}

static bool exponent(const char **p)
{
    if (**p != 'e' && **p != 'E') return true;
    (*p)++;
    if (**p != '-' && **p != '+') return false;
    (*p)++;
    return digits(p, "0123456789");
}

static bool is_float(const char *s)
{
    static const char *const special[] = {".nan", ".NaN", ".NAN", NULL};
    if (one_of(s, special)) return true;
    const char *p = s;
    if (*p == '-' || *p == '+') p++;
    if (!strcmp(p, ".inf") || !strcmp(p, ".Inf") || !strcmp(p, ".INF"))
        return true;
    if (*p == '.') {
        if (p != s) return false; /* "+.5" is not a float in YAML 1.1 */
        p++;
        return digits(&p, "0123456789_") && exponent(&p) && !*p;
    }
    if (*p < '0' || *p > '9') return false;
    digits(&p, "0123456789_");
    while (*p == ':') {
        p++;
        digits(&p, "0123456789");
    }
    if (*p != '.') return false;
    p++;
    digits(&p, "0123456789_");
    return exponent(&p) && !*p;
}

/* The YAML 1.1 words PyYAML reads as bools and nulls. */
static int word_type(const char *s, size_t len, bool *bval)
{
    static const struct {
        unsigned char len;
        char word[6];
        unsigned char type;
        bool val;
    } words[] = {
        {0, "", YT_NULL, 0},      {1, "~", YT_NULL, 0},     {2, "no", YT_BOOL, 0},
        {2, "No", YT_BOOL, 0},    {2, "NO", YT_BOOL, 0},    {2, "on", YT_BOOL, 1},
        {2, "On", YT_BOOL, 1},    {2, "ON", YT_BOOL, 1},    {3, "yes", YT_BOOL, 1},
        {3, "Yes", YT_BOOL, 1},   {3, "YES", YT_BOOL, 1},   {3, "off", YT_BOOL, 0},
        {3, "Off", YT_BOOL, 0},   {3, "OFF", YT_BOOL, 0},   {4, "true", YT_BOOL, 1},
        {4, "True", YT_BOOL, 1},  {4, "TRUE", YT_BOOL, 1},  {4, "null", YT_NULL, 0},
        {4, "Null", YT_NULL, 0},  {4, "NULL", YT_NULL, 0},  {5, "false", YT_BOOL, 0},
        {5, "False", YT_BOOL, 0}, {5, "FALSE", YT_BOOL, 0},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (words[i].len != len) continue;
        size_t k = 0; /* five bytes at most: inline, not a memcmp call */
        while (k < len && s[k] == words[i].word[k]) k++;
        if (k == len) {
            *bval = words[i].val;
            return words[i].type;
        }
    }
    return -1;
}

static void resolve(ynode *n, const char *tag)
{
    static const char *const yes[] = {"yes", "Yes", "YES", "true", "True",
                                      "TRUE", "on", "On", "ON", NULL};
    n->type = YT_STR;
    if (tag) {
        if (!strcmp(tag, YAML_BOOL_TAG)) n->type = YT_BOOL;
        else if (!strcmp(tag, YAML_NULL_TAG)) n->type = YT_NULL;
        else if (!strcmp(tag, YAML_INT_TAG)) n->type = YT_INT;
        else if (!strcmp(tag, YAML_FLOAT_TAG)) n->type = YT_FLOAT;
        n->bval = n->type == YT_BOOL && one_of(n->text, yes);
        return;
    }
    if (!n->plain) return;
    const char *s = n->text;
    /* Most scalars are names and schemas: rule them out by their first byte
     * and length before comparing words. */
    enum { WORD = 1, NUMBER = 2 };
    static const unsigned char first[256] = {
        ['\0'] = WORD, ['y'] = WORD, ['Y'] = WORD, ['n'] = WORD, ['N'] = WORD, ['t'] = WORD,
        ['T'] = WORD, ['f'] = WORD, ['F'] = WORD, ['o'] = WORD, ['O'] = WORD, ['~'] = WORD,
        ['0'] = NUMBER, ['1'] = NUMBER, ['2'] = NUMBER, ['3'] = NUMBER, ['4'] = NUMBER,
        ['5'] = NUMBER, ['6'] = NUMBER, ['7'] = NUMBER, ['8'] = NUMBER, ['9'] = NUMBER,
        ['+'] = NUMBER, ['-'] = NUMBER, ['.'] = NUMBER,
    };
    unsigned char c = (unsigned char)s[0];
    bool word = n->len <= 5 && (first[c] & WORD);
    bool number = first[c] & NUMBER;
    if ((word || number) && memchr(s, '\0', n->len)) return; /* an embedded NUL */
    int t;
    if (word && (t = word_type(s, n->len, &n->bval)) >= 0) n->type = (yn_type)t;
    else if (number && is_int(s)) n->type = YT_INT;
    else if (number && is_float(s)) n->type = YT_FLOAT;
}

const char *ta_yaml_type_name(const ynode *n)
{
    switch (n->kind) {
    case YN_SEQ: return "a list";
    case YN_MAP: return "a mapping";
    case YN_ALIAS: return "an alias";
    case YN_SCALAR: break;
    }
    switch (n->type) {
    case YT_STR: return "a string";
    case YT_NULL: return "null";
    case YT_BOOL: return "a bool";
    case YT_INT: return "an integer";
    case YT_FLOAT: return "a float";
    }
    return "a value";
}

/* ---- the tree ---------------------------------------------------------- */

static ynode *new_node(reader *r, yn_kind kind, const yaml_event_t *ev)
{
    ynode *n = ta_arena_zalloc(r->scratch, sizeof *n);
    if (!n) {
        r->st = TA_ERR_NOMEM;
        return NULL;
    }
    n->kind = kind;
    n->pos = mark_pos(r, ev->start_mark, ev->end_mark);
    return n;
}

/* Builds the node that starts with *ev (which it deletes). NULL on a yaml
 * error or allocation failure (r->st says which). */
static ynode *read_node(reader *r, yaml_event_t *ev, int depth)
{
    ynode *n = NULL;
    switch (ev->type) {
    case YAML_SCALAR_EVENT:
        n = new_node(r, YN_SCALAR, ev);
        if (!n) break;
        n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        n->len = (uint32_t)ev->data.scalar.length;
        {
            char *t = ta_arena_strndup(r->scratch, (const char *)ev->data.scalar.value, n->len);
            if (!t) {
                r->st = TA_ERR_NOMEM;
                n = NULL;
                break;
            }
            n->text = t;
        }
        resolve(n, (const char *)ev->data.scalar.tag);
        break;
    case YAML_ALIAS_EVENT:
        n = new_node(r, YN_ALIAS, ev);
        break;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
        bool map = ev->type == YAML_MAPPING_START_EVENT;
        n = new_node(r, map ? YN_MAP : YN_SEQ, ev);
        if (!n) break;
        if (depth >= MAX_DEPTH) {
            /* Stop here: libyaml's scanner takes time quadratic in the
             * nesting for what follows, so reading on to the end of
             * 100,000 '[' would take minutes. */
            report(r, "yaml-too-deep", n->pos, "no PyTorch yaml nests more than a few levels",
                   "yaml nested more than %d levels deep; reading stops here", MAX_DEPTH);
            if (r->st == TA_OK) r->st = TA_ERR_PARSE;
            yaml_event_delete(ev);
            return NULL;
        }
        yaml_event_delete(ev);
        ynode **tail = &n->first;
        uint32_t count = 0;
        for (;;) {
            yaml_event_t c;
            if (!next_event(r, &c)) return NULL;
            if (c.type == YAML_SEQUENCE_END_EVENT || c.type == YAML_MAPPING_END_EVENT) {
                yaml_event_delete(&c);
                break;
            }
            ynode *k = read_node(r, &c, depth + 1);
            if (!k) return NULL;
            *tail = k;
            tail = &k->next;
            count++;
        }
        n->n = map ? count / 2 : count;
        return n;
    }
    default:
        /* Not a node event: libyaml never produces one here. */
        break;
    }
    yaml_event_delete(ev);
    return n;
}

/* The root: a sequence is read one item at a time; anything else whole. */
static void read_root(reader *r, yaml_event_t *ev, const ta_yaml_handler *h)
{
    if (ev->type != YAML_SEQUENCE_START_EVENT) {
        ynode *n = read_node(r, ev, 0);
        if (n && r->st == TA_OK) r->st = h->other_root(h->ctx, n);
        return;
    }
    ynode seq = {.kind = YN_SEQ};
    seq.pos = mark_pos(r, ev->start_mark, ev->end_mark);
    yaml_event_delete(ev);
    if (!r->began) r->st = h->begin_seq(h->ctx, &seq);
    while (r->st == TA_OK) {
        yaml_event_t c;
        if (!next_event(r, &c)) return;
        if (c.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&c);
            return;
        }
        ynode *item = read_node(r, &c, 1);
        if (!item) return;
        if (r->skip) r->skip--; /* the token path handed it over */
        else r->st = h->item(h->ctx, item);
        ta_arena_reset(r->scratch);
    }
}

static void reader_init(reader *r, const ta_yaml_src *src, ta_diags *diags)
{
    memset(r, 0, sizeof *r);
    r->src = src;
    r->diags = diags;
    if (ta_arena_create(&r->scratch) != TA_OK) r->st = TA_ERR_NOMEM;
    const unsigned char *t = (const unsigned char *)src->text;
    if (src->len >= 3 && t[0] == 0xEF && t[1] == 0xBB && t[2] == 0xBF) r->base = 3;
    /* ASCII text (PyTorch's is) makes positions cheap; test 8 bytes a step */
    size_t i = 0;
    for (; i + 8 <= src->len; i += 8) {
        uint64_t w;
        memcpy(&w, t + i, 8);
        if (w & 0x8080808080808080ull) break;
    }
    while (i < src->len && t[i] < 0x80) i++;
    r->ascii = i == src->len;
    r->cur_off = r->base;
}

/* The event path, from the start of the text. */
static ta_status read_events(reader *r, const ta_yaml_handler *h)
{
    const unsigned char *t = (const unsigned char *)r->src->text;
    if (!yaml_parser_initialize(&r->p)) return TA_ERR_NOMEM;
    yaml_parser_set_input_string(&r->p, t, r->src->len);

    yaml_event_t ev;
    bool in_doc = false, seen_doc = false, seen_root = false;
    while (r->st == TA_OK && next_event(r, &ev)) {
        yaml_event_type_t type = ev.type;
        if (type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        if (type == YAML_DOCUMENT_START_EVENT) {
            if (seen_doc) {
                /* PyYAML's yaml.load: "expected a single document". */
                report(r, "yaml-syntax", mark_pos(r, ev.start_mark, ev.start_mark),
                       "split the stream or remove the second document",
                       "expected a single document in the stream, but found another");
                if (r->st == TA_OK) r->st = TA_ERR_PARSE;
                yaml_event_delete(&ev);
                break;
            }
            seen_doc = in_doc = true;
            yaml_event_delete(&ev);
            continue;
        }
        if (type == YAML_DOCUMENT_END_EVENT) {
            in_doc = false;
            yaml_event_delete(&ev);
            continue;
        }
        if (in_doc && (type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT ||
                       type == YAML_SEQUENCE_START_EVENT ||
                       type == YAML_MAPPING_START_EVENT)) {
            seen_root = true;
            read_root(r, &ev, h);
            continue;
        }
        yaml_event_delete(&ev);
    }
    if (r->st == TA_OK && !seen_root) r->st = h->other_root(h->ctx, NULL);
    yaml_parser_delete(&r->p);
    return r->st;
}

/* ---- the token path ------------------------------------------------------
 * libyaml's parser turns tokens into events with a state machine and an
 * allocation per event; for the files PyTorch writes (a block sequence of
 * block mappings whose values are scalars, flow sequences of scalars,
 * `{}`, nested block mappings and "k:\n- a" sequences) the tokens say the
 * same thing directly. This path
 * accepts only token sequences libyaml's parser accepts too, builds the
 * nodes the event path would (an event's marks are its token's marks when
 * there is no anchor or tag) and gives up ("bails") at anything else:
 * anchors, aliases, tags, flow mappings, empty values, directives, a second
 * document, a scan error. Then the event path reads the text again, skipping
 * the root items already handed over, so every diagnostic is the event
 * path's. Items are handed over on the same token the event path would hand
 * them over on, so the event path has them all before any error. */

enum { TK_MAX_DEPTH = 16 }; /* below MAX_DEPTH: "yaml-too-deep" is the event path's */

/* The next token's type, or -1 on a scan error. */
static int tk_peek(reader *r)
{
    if (!r->has_tk) {
        if (!yaml_parser_scan(&r->p, &r->tk)) return -1;
        r->has_tk = true;
    }
    return (int)r->tk.type;
}

static void tk_drop(reader *r)
{
    yaml_token_delete(&r->tk);
    r->has_tk = false;
}

/* A node at the current token's marks (the token is not dropped). */
static ynode *tk_new(reader *r, yn_kind kind)
{
    ynode *n = ta_arena_zalloc(r->scratch, sizeof *n);
    if (!n) {
        r->st = TA_ERR_NOMEM;
        return NULL;
    }
    n->kind = kind;
    n->pos = mark_pos(r, r->tk.start_mark, r->tk.end_mark);
    return n;
}

/* The current token, a scalar. */
static ynode *tk_scalar(reader *r)
{
    ynode *n = tk_new(r, YN_SCALAR);
    if (!n) return NULL;
    n->plain = r->tk.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    n->len = (uint32_t)r->tk.data.scalar.length;
    char *t = ta_arena_strndup(r->scratch, (const char *)r->tk.data.scalar.value, n->len);
    if (!t) {
        r->st = TA_ERR_NOMEM;
        return NULL;
    }
    n->text = t;
    resolve(n, NULL);
    tk_drop(r);
    return n;
}

/* A token that cannot start a node here (an empty value follows). */
static bool tk_empty(int t)
{
    return t == YAML_KEY_TOKEN || t == YAML_VALUE_TOKEN || t == YAML_BLOCK_END_TOKEN ||
           t == YAML_BLOCK_ENTRY_TOKEN;
}

static ynode *tk_node(reader *r, int depth);

/* Appends c to the children of n (tail: where the next one goes). */
static void tk_append(ynode *n, ynode ***tail, ynode *c)
{
    **tail = c;
    *tail = &c->next;
    n->n++;
}

/* Appends the pair k: v to the mapping n. */
static void tk_append_pair(ynode *n, ynode ***tail, ynode *k, ynode *v)
{
    **tail = k;
    k->next = v;
    *tail = &v->next;
    n->n++;
}

/* A mapping value that is a sequence at the key's indentation ("k:\n- a"):
 * no start or end token of its own; it starts at its first "-" and ends at
 * the first token that is not one (left for the mapping). */
static ynode *tk_indentless(reader *r, int depth)
{
    if (depth >= TK_MAX_DEPTH) return NULL;
    ynode *n = tk_new(r, YN_SEQ);
    if (!n) return NULL;
    ynode **tail = &n->first;
    while (tk_peek(r) == YAML_BLOCK_ENTRY_TOKEN) {
        tk_drop(r);
        if (tk_empty(tk_peek(r))) return NULL;
        ynode *c = tk_node(r, depth + 1);
        if (!c) return NULL;
        tk_append(n, &tail, c);
    }
    return n;
}

/* key ::= KEY SCALAR VALUE    (the key node; NULL: bail) */
static ynode *tk_key(reader *r)
{
    if (tk_peek(r) != YAML_KEY_TOKEN) return NULL;
    tk_drop(r);
    if (tk_peek(r) != YAML_SCALAR_TOKEN) return NULL;
    ynode *k = tk_scalar(r);
    if (!k || tk_peek(r) != YAML_VALUE_TOKEN) return NULL;
    tk_drop(r);
    return k;
}

/* block_mapping ::= BLOCK-MAPPING-START {key (node | indentless)} BLOCK-END */
static ynode *tk_block_mapping(reader *r, int depth)
{
    ynode *n = tk_new(r, YN_MAP);
    if (!n) return NULL;
    tk_drop(r);
    ynode **tail = &n->first;
    while (tk_peek(r) != YAML_BLOCK_END_TOKEN) {
        ynode *k = tk_key(r);
        if (!k) return NULL;
        int t = tk_peek(r);
        ynode *v = t == YAML_BLOCK_ENTRY_TOKEN ? tk_indentless(r, depth + 1)
                   : tk_empty(t)               ? NULL
                                               : tk_node(r, depth + 1);
        if (!v) return NULL;
        tk_append_pair(n, &tail, k, v);
    }
    tk_drop(r);
    return n;
}

/* block_sequence ::= BLOCK-SEQUENCE-START {BLOCK-ENTRY node} BLOCK-END */
static ynode *tk_block_sequence(reader *r, int depth)
{
    ynode *n = tk_new(r, YN_SEQ);
    if (!n) return NULL;
    tk_drop(r);
    ynode **tail = &n->first;
    for (int t; (t = tk_peek(r)) != YAML_BLOCK_END_TOKEN;) {
        if (t != YAML_BLOCK_ENTRY_TOKEN) return NULL;
        tk_drop(r);
        if (tk_empty(tk_peek(r))) return NULL;
        ynode *c = tk_node(r, depth + 1);
        if (!c) return NULL;
        tk_append(n, &tail, c);
    }
    tk_drop(r);
    return n;
}

/* After a flow item: true at the closing token `end` (not dropped), or past
 * a ','; false (bail) otherwise. */
static bool tk_flow_next(reader *r, int end, bool *at_end)
{
    int t = tk_peek(r);
    *at_end = t == end;
    if (*at_end) return true;
    if (t != YAML_FLOW_ENTRY_TOKEN) return false;
    tk_drop(r);
    return true;
}

/* flow_mapping ::= '{' [key SCALAR {',' key SCALAR}] '}'   (no trailing ',') */
static ynode *tk_flow_mapping(reader *r)
{
    ynode *n = tk_new(r, YN_MAP);
    if (!n) return NULL;
    tk_drop(r);
    ynode **tail = &n->first;
    bool at_end = tk_peek(r) == YAML_FLOW_MAPPING_END_TOKEN;
    while (!at_end) {
        ynode *k = tk_key(r);
        if (!k || tk_peek(r) != YAML_SCALAR_TOKEN) return NULL;
        ynode *v = tk_scalar(r);
        if (!v) return NULL;
        tk_append_pair(n, &tail, k, v);
        if (!tk_flow_next(r, YAML_FLOW_MAPPING_END_TOKEN, &at_end)) return NULL;
    }
    tk_drop(r);
    return n;
}

/* flow_sequence ::= '[' [SCALAR {',' SCALAR}] ']'   (no trailing ',') */
static ynode *tk_flow_sequence(reader *r)
{
    ynode *n = tk_new(r, YN_SEQ);
    if (!n) return NULL;
    tk_drop(r);
    ynode **tail = &n->first;
    bool at_end = tk_peek(r) == YAML_FLOW_SEQUENCE_END_TOKEN;
    while (!at_end) {
        if (tk_peek(r) != YAML_SCALAR_TOKEN) return NULL; /* also "[a, ]" */
        ynode *c = tk_scalar(r);
        if (!c) return NULL;
        tk_append(n, &tail, c);
        if (!tk_flow_next(r, YAML_FLOW_SEQUENCE_END_TOKEN, &at_end)) return NULL;
    }
    tk_drop(r);
    return n;
}

/* node ::= SCALAR | block_mapping | block_sequence | flow_mapping
 *        | flow_sequence
 * NULL with r->st == TA_OK: anything else, and the event path takes over. */
static ynode *tk_node(reader *r, int depth)
{
    if (depth >= TK_MAX_DEPTH) return NULL;
    switch (tk_peek(r)) {
    case YAML_SCALAR_TOKEN: return tk_scalar(r);
    case YAML_BLOCK_MAPPING_START_TOKEN: return tk_block_mapping(r, depth);
    case YAML_BLOCK_SEQUENCE_START_TOKEN: return tk_block_sequence(r, depth);
    case YAML_FLOW_MAPPING_START_TOKEN: return tk_flow_mapping(r);
    case YAML_FLOW_SEQUENCE_START_TOKEN: return tk_flow_sequence(r);
    default: return NULL;
    }
}

/* The whole stream by tokens: true when done (r->st says how), false when
 * the event path must take over. */
static bool read_tokens(reader *r, const ta_yaml_handler *h)
{
    if (!yaml_parser_initialize(&r->p)) {
        r->st = TA_ERR_NOMEM;
        return true;
    }
    yaml_parser_set_input_string(&r->p, (const unsigned char *)r->src->text, r->src->len);
    bool done = false;
    if (tk_peek(r) != YAML_STREAM_START_TOKEN) goto out;
    tk_drop(r);
    if (tk_peek(r) != YAML_BLOCK_SEQUENCE_START_TOKEN) goto out;
    ynode seq = {.kind = YN_SEQ};
    seq.pos = mark_pos(r, r->tk.start_mark, r->tk.end_mark);
    tk_drop(r);
    r->began = true;
    r->st = h->begin_seq(h->ctx, &seq);
    if (r->st != TA_OK) {
        done = true;
        goto out;
    }
    for (;;) {
        int t = tk_peek(r);
        if (t == YAML_BLOCK_END_TOKEN) break;
        if (t != YAML_BLOCK_ENTRY_TOKEN) goto out;
        tk_drop(r);
        if (tk_empty(tk_peek(r))) goto out;
        ynode *item = tk_node(r, 1);
        if (!item) {
            done = r->st != TA_OK;
            goto out;
        }
        r->st = h->item(h->ctx, item);
        ta_arena_reset(r->scratch);
        r->skip++;
        if (r->st != TA_OK) {
            done = true;
            goto out;
        }
    }
    tk_drop(r);
    done = tk_peek(r) == YAML_STREAM_END_TOKEN;
out:
    if (r->has_tk) tk_drop(r);
    yaml_parser_delete(&r->p);
    return done;
}

ta_status ta_yaml_read(const ta_yaml_src *src, const ta_yaml_handler *h,
                       ta_diags *diags)
{
    bool fell_back;
    return ta_yaml_read_ex(src, h, diags, &fell_back);
}

ta_status ta_yaml_read_ex(const ta_yaml_src *src, const ta_yaml_handler *h,
                          ta_diags *diags, bool *fell_back)
{
    reader r;
    reader_init(&r, src, diags);
    *fell_back = false;
    if (r.st != TA_OK) return r.st;
    *fell_back = !read_tokens(&r, h);
    if (*fell_back) {
        /* Start again with the event path, which says what the matter is. */
        ta_arena_reset(r.scratch);
        r.cur_idx = 0;
        r.cur_off = r.base;
        read_events(&r, h);
    }
    ta_arena_destroy(r.scratch);
    return r.st;
}

ta_status ta_yaml_read_events(const ta_yaml_src *src, const ta_yaml_handler *h,
                              ta_diags *diags)
{
    reader r;
    reader_init(&r, src, diags);
    if (r.st != TA_OK) return r.st;
    read_events(&r, h);
    ta_arena_destroy(r.scratch);
    return r.st;
}
