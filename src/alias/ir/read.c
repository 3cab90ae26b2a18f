/* read.c - the TorchScript IR reader: a graph as torch 1.13.1 prints it.
 *
 * A hand-written recursive-descent parser over the text, one function per
 * rule (the rule as its comment). Lines matter only where torch's printer
 * puts them (a statement per line, a block header per line); indentation is
 * not significant. Every error is one diagnostic at the offending byte, with
 * the line's text, and the partial graph is dropped.
 *
 *   graph     := 'graph' '(' [param {',' param}] ')' ':' EOL body 'return' '(' refs ')' EOL*
 *   param     := VALUE [':' type]
 *   body      := { statement }
 *   statement := [[VALUE ':' type {',' VALUE ':' type}] '='] KIND [attrs] '(' refs ')'
 *                [comment] EOL { block }
 *   attrs     := '[' NAME '=' attr_value {',' NAME '=' attr_value} ']'
 *   block     := 'block' INT '(' [param {',' param}] ')' ':' EOL body '->' '(' refs ')' EOL
 *   refs      := [VALUE {',' VALUE}]
 *   VALUE     := '%' NAME        KIND := NAME '::' NAME
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alias/ir/ir_internal.h"
#include "base/arena.h"

enum { MAX_BLOCK_DEPTH = 256, AHEAD = 32, TYPE_MEMO = 4, KIND_MEMO = 8, RECENT = 256 };

/* Byte classes, so the inner loops look a byte up once. */
enum {
    C_NAME = 1,  /* in a value name (name_char) */
    C_WORD = 2,  /* [A-Za-z0-9_]: operator names, attribute names */
    C_SPACE = 4, /* space, tab, CR: within a line */
    C_BLANK = 8  /* and line breaks (isspace) */
};

/* A type as it was spelled in the text, parsed: most values of a graph have
 * one of a few types ("Tensor", "int"), and the next same spelling is that
 * type again. */
typedef struct type_memo {
    const char *text;
    size_t len;
    const ta_ir_type *type;
} type_memo;

/* A value defined or looked up lately, by its name's hash (see
 * recent_value). */
typedef struct recent_value {
    uint64_t hash;
    ta_ir_value *v;
} recent_value;

/* A value name: where it is in the text, its length and its hash in the
 * graph's name map. */
typedef struct value_ref {
    size_t pos, len;
    uint64_t hash;
} value_ref;

typedef struct reader {
    const char *s;
    size_t len, pos;
    const char *source;
    ta_ir_graph *g;
    ta_diags *diags;
    int depth;
    ta_status status; /* TA_OK until the first error */
    uint32_t line;    /* the line of byte line_pos (see cur_line) */
    size_t line_pos;
    /* the names of the line after the one being read, hashed ahead (see
     * hash_next_line): a queue in text order */
    bool look_ahead;
    size_t ahead_end;
    value_ref ahead[AHEAD];
    uint32_t ahead_head, ahead_n;
    uint8_t cls[256]; /* C_* by byte */
    type_memo types[TYPE_MEMO];
    uint32_t next_memo;
    const ir_kind_info *kinds[KIND_MEMO]; /* the node kinds read last */
    uint32_t next_kind;
    recent_value recent[RECENT];
} reader;

/* A value name is what torch's debug names are made of: module and
 * variable names, with ".N" suffixes ("x.1", "block1-0"): any printable
 * byte but the IR's own punctuation. */
static void classify_bytes(reader *r)
{
    for (int c = 0; c < 256; c++) {
        uint8_t k = 0;
        if (c > ' ' && c != 0x7f && !strchr(",()[]:=#%\"'", c)) k |= C_NAME;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') k |= C_WORD;
        if (c == ' ' || c == '\t' || c == '\r') k |= C_SPACE;
        if (c == ' ' || (c >= '\t' && c <= '\r')) k |= C_BLANK;
        r->cls[c] = k;
    }
}

static bool is(const reader *r, char c, uint8_t k) { return r->cls[(unsigned char)c] & k; }

/* The 1-based line of r->pos, counted from the last position asked about
 * (the reader moves forward, and back only over a line's look-ahead). */
static uint32_t cur_line(reader *r)
{
    for (const char *nl; r->line_pos < r->pos && (nl = memchr(r->s + r->line_pos, '\n', r->pos - r->line_pos));) {
        r->line++;
        r->line_pos = (size_t)(nl - r->s) + 1;
    }
    if (r->line_pos < r->pos) r->line_pos = r->pos;
    for (; r->line_pos > r->pos; r->line_pos--) r->line -= r->s[r->line_pos - 1] == '\n';
    return r->line;
}

/* The 1-based column of r->pos. */
static uint32_t cur_col(const reader *r)
{
    size_t start = r->pos;
    while (start > 0 && r->s[start - 1] != '\n') start--;
    return (uint32_t)(r->pos - start) + 1;
}

/* ---- positions and errors ---------------------------------------------------- */

static void locate(const reader *r, size_t pos, ta_loc *loc)
{
    uint32_t line = 1;
    size_t start = 0;
    for (size_t i = 0; i < pos && i < r->len; i++)
        if (r->s[i] == '\n') {
            line++;
            start = i + 1;
        }
    size_t end = start;
    while (end < r->len && r->s[end] != '\n') end++;
    loc->file = r->source;
    loc->line = line;
    loc->col = (uint32_t)(pos - start) + 1;
    loc->length = 1;
    loc->line_text = r->s + start;
    loc->line_len = (uint32_t)(end - start);
}

static bool error_at(reader *r, size_t pos, const char *rule, const char *fmt, ...)
    TA_PRINTF(4, 5);

static bool error_at(reader *r, size_t pos, const char *rule, const char *fmt, ...)
{
    if (r->status != TA_OK) return false;
    r->status = TA_ERR_PARSE;
    ta_loc loc;
    locate(r, pos, &loc);
    va_list ap;
    va_start(ap, fmt);
    ta_diag_vemit(r->diags, TA_SEV_ERROR, &loc, rule, fmt, ap);
    va_end(ap);
    return false;
}

static bool syntax(reader *r, const char *what)
{
    if (r->pos >= r->len) return error_at(r, r->pos, "ir-syntax", "expected %s, found the end of the input", what);
    if (r->s[r->pos] == '\n') return error_at(r, r->pos, "ir-syntax", "expected %s, found the end of the line", what);
    return error_at(r, r->pos, "ir-syntax", "expected %s", what);
}

static bool oom(reader *r)
{
    if (r->status == TA_OK) r->status = TA_ERR_NOMEM;
    return false;
}

/* ---- lexical helpers ------------------------------------------------------------ */

static void skip_spaces(reader *r)
{
    while (r->pos < r->len && is(r, r->s[r->pos], C_SPACE)) r->pos++;
}

/* Spaces and line breaks. */
static void skip_blank(reader *r)
{
    while (r->pos < r->len && is(r, r->s[r->pos], C_BLANK)) r->pos++;
}

/* Past the [A-Za-z0-9_] bytes at r->pos. */
static void skip_word(reader *r)
{
    while (r->pos < r->len && is(r, r->s[r->pos], C_WORD)) r->pos++;
}

static bool peek(reader *r, char c) { return r->pos < r->len && r->s[r->pos] == c; }

static bool peek_word(reader *r, const char *w)
{
    size_t n = strlen(w);
    return r->len - r->pos >= n && !memcmp(r->s + r->pos, w, n);
}

static bool expect(reader *r, char c, const char *what)
{
    skip_spaces(r);
    if (!peek(r, c)) return syntax(r, what);
    r->pos++;
    return true;
}

/* EOL := [spaces] ('\n' | end of input) */
static bool expect_eol(reader *r)
{
    skip_spaces(r);
    if (r->pos >= r->len) return true;
    if (r->s[r->pos] != '\n') return syntax(r, "the end of the line");
    r->pos++;
    return true;
}


/* Hashes the value names of the line after the one at r->pos, and has the
 * processor fetch their slots in the name map while this line is read: the
 * map of a large graph does not fit in the cache, and one lookup after the
 * other would wait for memory each time. The lookups use these hashes.
 * Done only for a map larger than a core's cache is likely to be (1 MiB):
 * below that, scanning each line twice costs more than it saves. */
static void hash_next_line(reader *r)
{
    const char *s = r->s, *end = s + r->len;
    const char *nl = memchr(s + r->pos, '\n', r->len - r->pos);
    if (!nl || (size_t)(nl - s) < r->ahead_end) return; /* done already */
    const char *p = nl + 1, *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    while ((p = memchr(p, '%', (size_t)(eol - p)))) {
        const char *q = ++p;
        while (q < eol && is(r, *q, C_NAME)) q++;
        if (q > p && r->ahead_n < AHEAD) {
            value_ref *h = &r->ahead[(r->ahead_head + r->ahead_n++) % AHEAD];
            h->pos = (size_t)(p - s);
            h->len = (size_t)(q - p);
            h->hash = ta_map_hash_bytes(p, h->len);
            ta_map_prefetch(&r->g->names, h->hash);
        }
        p = q;
    }
    r->ahead_end = (size_t)(eol - s);
}

/* Whether the name at r->pos was found ahead (then *v is it). */
static bool found_ahead(reader *r, value_ref *v)
{
    while (r->ahead_n && r->ahead[r->ahead_head].pos <= r->pos) {
        *v = r->ahead[r->ahead_head];
        r->ahead_head = (r->ahead_head + 1) % AHEAD;
        r->ahead_n--;
        if (v->pos == r->pos) return true;
    }
    return false;
}

/* NAME after '%': the span of name characters, and its hash. */
static bool value_name(reader *r, value_ref *v)
{
    skip_spaces(r);
    if (!peek(r, '%')) return syntax(r, "a value ('%name')");
    r->pos++;
    if (found_ahead(r, v)) {
        r->pos += v->len;
        return true;
    }
    v->pos = r->pos;
    while (r->pos < r->len && is(r, r->s[r->pos], C_NAME)) r->pos++;
    v->len = r->pos - v->pos;
    if (!v->len) return syntax(r, "a value name after '%'");
    v->hash = ta_map_hash_bytes(r->s + v->pos, v->len);
    return true;
}

/* The type spelled at r->pos as a memo has it (NULL: none does): the same
 * bytes, not followed by what would make a longer type. */
static const ta_ir_type *memo_type(reader *r)
{
    for (int i = 0; i < TYPE_MEMO; i++) {
        const type_memo *m = &r->types[i];
        if (!m->type || r->len - r->pos < m->len || memcmp(r->s + r->pos, m->text, m->len)) continue;
        size_t end = r->pos + m->len;
        char c = end < r->len ? r->s[end] : ' ';
        if (is(r, c, C_WORD) || c == '.' || c == '[' || c == '(' || c == '?') continue;
        r->pos = end;
        return m->type;
    }
    return NULL;
}

/* type, after ':' */
static const ta_ir_type *type_after_colon(reader *r)
{
    skip_spaces(r);
    const ta_ir_type *t = memo_type(r);
    if (t) return t;
    size_t start = r->pos, err = 0;
    const char *msg = NULL;
    if (!(t = ir_type_parse_at(&r->g->types, r->s, r->len, &r->pos, &err, &msg))) {
        if (err == SIZE_MAX) return oom(r), NULL;
        error_at(r, err, "ir-syntax", "%s", msg);
        return NULL;
    }
    r->types[r->next_memo++ % TYPE_MEMO] = (type_memo){r->s + start, r->pos - start, t};
    return t;
}

/* ---- values ------------------------------------------------------------------- */

/* Defines %name as output of def (a node or a param sentinel). */
static ta_ir_value *define(reader *r, ta_ir_node *def, const value_ref *name, const ta_ir_type *t)
{
    bool taken;
    const char *at = r->s + name->pos;
    ta_ir_value *v = ir_value_define(r->g, def, at, name->len, name->hash, t, &taken);
    if (taken) error_at(r, name->pos - 1, "ir-redefined", "value '%%%.*s' is defined twice", (int)name->len, at);
    else if (!v) oom(r);
    else r->recent[name->hash & (RECENT - 1)] = (recent_value){name->hash, v};
    return v;
}

/* VALUE [':' type], defined as an output of def (a node, or a block's
 * param sentinel); the type is Tensor when left out. */
static bool typed_value(reader *r, ta_ir_node *def)
{
    value_ref name;
    if (!value_name(r, &name)) return false;
    skip_spaces(r);
    const ta_ir_type *t = NULL;
    if (peek(r, ':')) {
        r->pos++;
        if (!(t = type_after_colon(r))) return false;
    }
    return define(r, def, &name, t) != NULL;
}

/* Whether v is an output of user, or of a node whose blocks hold user (in
 * block b): both are defined only after the use. */
static bool own_output(const ta_ir_value *v, const ta_ir_node *user, const ta_ir_block *b)
{
    if (v->node == user) return true;
    for (; b && b->owner; b = b->owner->block)
        if (b->owner == v->node) return true;
    return false;
}

/* The value called name, or NULL. Most uses name a value defined a few
 * lines up, or one of a few used all along (a graph input, a constant): a
 * small table of recent values by hash, which stays in the cache, answers
 * them before the graph's name map, which does not (a value a line). */
static ta_ir_value *recent_value_named(reader *r, const value_ref *name)
{
    const char *at = r->s + name->pos;
    recent_value *c = &r->recent[name->hash & (RECENT - 1)];
    if (c->v && c->hash == name->hash) { /* the name's bytes, then its end (a name is short: no call) */
        size_t i = 0;
        while (i < name->len && c->v->name[i] == at[i]) i++;
        if (i == name->len && !c->v->name[i]) return c->v;
    }
    ta_map_entry *e = ta_map_find_h(&r->g->names, at, name->len, name->hash);
    if (!e || !e->value.ptr) return NULL;
    *c = (recent_value){name->hash, e->value.ptr};
    return e->value.ptr;
}

/* Whether v, defined before, is visible in block b: defined in b or in a
 * block around it, not in a sibling branch or an inner block that ended
 * (torch's parser would take such a use, and its graph would not lint). */
static bool in_scope(const ta_ir_value *v, const ta_ir_block *b)
{
    const ta_ir_block *def = v->node->block;
    for (; b; b = b->owner ? b->owner->block : NULL)
        if (b == def) return true;
    return false;
}

/* VALUE, a use by user in block b */
static ta_ir_value *reference(reader *r, const ta_ir_node *user, const ta_ir_block *b)
{
    value_ref name;
    if (!value_name(r, &name)) return NULL;
    ta_ir_value *v = recent_value_named(r, &name);
    if (v && !own_output(v, user, b) && !in_scope(v, b)) {
        const char *at = r->s + name.pos;
        error_at(r, name.pos - 1, "ir-undefined", "value '%%%.*s' is defined in a block this use is not in",
                 (int)name.len, at);
        return NULL;
    }
    if (!v || own_output(v, user, b)) {
        const char *at = r->s + name.pos;
        error_at(r, name.pos - 1, "ir-undefined", "value '%%%.*s' is used before it is defined", (int)name.len, at);
        return NULL;
    }
    return v;
}

/* How many values the list at r->pos names: its '%'s before the ')' or
 * line end that closes it (a name holds neither), so a node's inputs are
 * allocated once. Only a size: an error in the list is found as it is read. */
static uint32_t references_count(const reader *r)
{
    uint32_t n = 0;
    for (const char *p = r->s + r->pos, *end = r->s + r->len; p < end && *p != ')' && *p != '\n'; p++)
        n += *p == '%';
    return n;
}

/* refs := [VALUE {',' VALUE}] ')'; each is added as an input of user
 * (whose input array is made as large as they are many, when known). */
static bool references(reader *r, ta_ir_node *user, const ta_ir_block *b)
{
    uint32_t count = references_count(r);
    if (count && ir_grow(r->g->arena, (void **)&user->inputs, &user->cap_inputs, user->ninputs + count,
                         sizeof *user->inputs))
        return oom(r);
    skip_blank(r);
    if (peek(r, ')')) {
        r->pos++;
        return true;
    }
    for (;;) {
        ta_ir_value *v = reference(r, user, b);
        if (!v) return false;
        if (ta_ir_node_add_input(user, v) != TA_OK) return oom(r);
        skip_blank(r);
        if (peek(r, ',')) {
            r->pos++;
            continue;
        }
        return expect(r, ')', "',' or ')'");
    }
}

/* param := VALUE [':' type] */
static bool param(reader *r, ta_ir_block *b) { return typed_value(r, b->param); }

/* [param {',' param}] ')' */
static bool params(reader *r, ta_ir_block *b)
{
    skip_blank(r);
    if (peek(r, ')')) {
        r->pos++;
        return true;
    }
    for (;;) {
        if (!param(r, b)) return false;
        skip_blank(r);
        if (peek(r, ',')) {
            r->pos++;
            skip_blank(r);
            continue;
        }
        return expect(r, ')', "',' or ')'");
    }
}

/* ---- statements --------------------------------------------------------------- */

static bool body(reader *r, ta_ir_block *b);

/* One attribute value as printed: up to the ',' or ']' that ends it, with
 * brackets, parentheses and quoted strings (and their escapes) skipped over. */
static bool attr_value(reader *r, size_t *start, size_t *n)
{
    *start = r->pos;
    int depth = 0;
    while (r->pos < r->len) {
        char c = r->s[r->pos];
        if (c == '\n') break;
        if (c == '"' || c == '\'') {
            size_t open = r->pos++;
            while (r->pos < r->len && r->s[r->pos] != c && r->s[r->pos] != '\n')
                r->pos += r->s[r->pos] == '\\' && r->pos + 1 < r->len ? 2 : 1;
            if (r->pos >= r->len || r->s[r->pos] != c)
                return error_at(r, open, "ir-syntax", "unterminated string in an attribute");
            r->pos++;
            continue;
        }
        if (c == '[' || c == '(') depth++;
        else if ((c == ']' || c == ')') && depth > 0) depth--;
        else if ((c == ',' || c == ']') && depth == 0) break;
        r->pos++;
    }
    *n = r->pos - *start;
    while (*n && r->s[*start + *n - 1] == ' ') (*n)--;
    if (!*n) return syntax(r, "an attribute value");
    return true;
}

/* attrs := '[' NAME '=' attr_value {',' NAME '=' attr_value} ']' */
static bool attrs(reader *r, ta_ir_node *node)
{
    r->pos++; /* '[' */
    for (;;) {
        skip_spaces(r);
        size_t ns = r->pos;
        skip_word(r);
        size_t nn = r->pos - ns;
        if (!nn) return syntax(r, "an attribute name");
        if (!expect(r, '=', "'=' after the attribute name")) return false;
        size_t vs, vn;
        if (!attr_value(r, &vs, &vn)) return false;
        ta_arena *a = r->g->arena;
        const char *name = ta_arena_strndup(a, r->s + ns, nn);
        const char *value = ta_arena_strndup(a, r->s + vs, vn);
        if (!name || !value ||
            ir_grow(a, (void **)&node->attrs, &node->cap_attrs, node->nattrs + 1, sizeof *node->attrs))
            return oom(r);
        node->attrs[node->nattrs].name = name;
        node->attrs[node->nattrs].value = value;
        node->nattrs++;
        if (peek(r, ',')) {
            r->pos++;
            continue;
        }
        return expect(r, ']', "',' or ']' after an attribute");
    }
}

/* KIND := NAME '::' NAME */
static const ir_kind_info *kind(reader *r)
{
    skip_spaces(r);
    size_t start = r->pos;
    skip_word(r);
    if (r->pos == start || !peek_word(r, "::")) return syntax(r, "an operator ('ns::name')"), NULL;
    r->pos += 2;
    size_t name = r->pos;
    skip_word(r);
    if (r->pos == name) return syntax(r, "an operator name after '::'"), NULL;
    if (peek(r, '.')) {
        error_at(r, r->pos, "ir-syntax", "an operator in IR has no overload name");
        ta_diag_hint(r->diags, "write '%.*s(...)': the overload is chosen from the argument types",
                     (int)(r->pos - start), r->s + start);
        return NULL;
    }
    size_t len = r->pos - start;
    for (int i = 0; i < KIND_MEMO; i++) /* a graph has a few kinds: most are one of the last */
        if (r->kinds[i] && r->kinds[i]->len == len && !memcmp(r->kinds[i]->name, r->s + start, len))
            return r->kinds[i];
    const ir_kind_info *k = ir_graph_kind(r->g, r->s + start, len);
    if (!k) oom(r);
    else r->kinds[r->next_kind++ % KIND_MEMO] = k;
    return k;
}

/* comment := '#' text up to the end of the line */
static bool comment(reader *r, ta_ir_node *node)
{
    skip_spaces(r);
    if (!peek(r, '#')) return true;
    r->pos++;
    if (peek(r, ' ')) r->pos++;
    size_t start = r->pos;
    while (r->pos < r->len && r->s[r->pos] != '\n') r->pos++;
    size_t n = r->pos - start;
    while (n && (r->s[start + n - 1] == ' ' || r->s[start + n - 1] == '\r')) n--;
    if (!(node->source = ta_arena_strndup(r->g->arena, r->s + start, n))) return oom(r);
    return true;
}

/* block := 'block' INT '(' [param {',' param}] ')' ':' EOL body '->' '(' refs ')' EOL */
static bool block(reader *r, ta_ir_node *owner)
{
    r->pos += 5; /* "block" */
    while (r->pos < r->len && (r->s[r->pos] >= '0' && r->s[r->pos] <= '9')) r->pos++;
    if (!expect(r, '(', "'(' after 'blockN'")) return false;
    ta_ir_block *b;
    if (ta_ir_node_add_block(owner, &b) != TA_OK) return oom(r);
    if (!params(r, b) || !expect(r, ':', "':' after the block's parameters") || !expect_eol(r))
        return false;
    if (++r->depth > MAX_BLOCK_DEPTH)
        return error_at(r, r->pos, "ir-syntax", "blocks nested more than %d deep", MAX_BLOCK_DEPTH);
    if (!body(r, b)) return false;
    r->depth--;
    if (!peek_word(r, "->")) return syntax(r, "'->' closing the block");
    r->pos += 2;
    if (!expect(r, '(', "'(' after '->'")) return false;
    return references(r, b->ret, b) && expect_eol(r);
}

/* The blocks that follow a node's line. */
static bool blocks(reader *r, ta_ir_node *owner)
{
    for (;;) {
        size_t save = r->pos;
        skip_blank(r);
        if (!peek_word(r, "block") || r->pos + 5 >= r->len || (r->s[r->pos + 5] < '0' || r->s[r->pos + 5] > '9')) {
            r->pos = save;
            return true;
        }
        if (!block(r, owner)) return false;
    }
}


/* What GetAttr and SetAttr show of a class: an attribute and its type. */
static bool learn_class_attr(reader *r, ta_ir_node *node)
{
    ir_kind k = node->kind->kind;
    if ((k != IR_K_GET_ATTR && k != IR_K_SET_ATTR) || node->ninputs < 1) return true;
    const ta_ir_type *cls = node->inputs[0]->type;
    const char *name = ta_ir_node_attr(node, "name");
    const ta_ir_type *t = NULL;
    if (k == IR_K_GET_ATTR && node->noutputs == 1) t = node->outputs[0]->type;
    if (k == IR_K_SET_ATTR && node->ninputs == 2) t = node->inputs[1]->type;
    if (cls->kind != TA_IR_CLASS || cls->attrs->declared || !name || !t) return true;
    size_t n = strlen(name);
    if (n >= 2 && name[0] == '"' && name[n - 1] == '"') {
        name++;
        n -= 2;
    }
    if (ir_class_add_attr(r->g->arena, cls, name, n, t) != TA_OK) return oom(r);
    return true;
}

/* statement := [[outputs] '='] KIND [attrs] '(' refs ')' [comment] EOL {block}
 * (torch prints a node without outputs as "= KIND(...)" and reads it as
 * "KIND(...)": both are accepted) */
static bool statement(reader *r, ta_ir_block *b, uint32_t line, uint32_t col)
{
    ta_ir_node *node = ir_node_new(r->g, NULL);
    if (!node) return oom(r);
    bool outputs = peek(r, '%');
    if (outputs)
        for (;;) {
            if (!typed_value(r, node)) return false;
            skip_spaces(r);
            if (!peek(r, ',')) break;
            r->pos++;
        }
    skip_spaces(r);
    if (outputs || peek(r, '=')) {
        if (!expect(r, '=', "'=' before the operator")) return false;
    }
    if (!(node->kind = kind(r))) return false;
    node->line = line;
    node->col = col;
    if (peek(r, '[') && !attrs(r, node)) return false;
    if (!expect(r, '(', "'(' before the inputs") || !references(r, node, b)) return false;
    if (!comment(r, node) || !expect_eol(r)) return false;
    ir_node_link_after(node, b->ret->prev);
    return learn_class_attr(r, node) && blocks(r, node);
}

/* body := { statement }, up to 'return' or '->' */
static bool body(reader *r, ta_ir_block *b)
{
    for (;;) {
        skip_blank(r);
        if (r->pos >= r->len) return syntax(r, b->owner ? "'->' closing the block" : "'return'");
        if (peek_word(r, "->") || peek_word(r, "return")) return true;
        uint32_t line = cur_line(r);
        if (r->look_ahead) hash_next_line(r);
        if (!statement(r, b, line, cur_col(r))) return false;
    }
}

/* graph := 'graph' '(' params ')' ':' EOL body 'return' '(' refs ')' EOL* */
static bool graph(reader *r)
{
    skip_blank(r);
    if (!peek_word(r, "graph")) return syntax(r, "'graph('");
    r->pos += 5;
    if (!expect(r, '(', "'(' after 'graph'") || !params(r, r->g->top)) return false;
    if (!expect(r, ':', "':' after the graph's inputs") || !expect_eol(r)) return false;
    if (!body(r, r->g->top)) return false;
    if (!peek_word(r, "return")) return syntax(r, "'return'");
    r->pos += 6;
    if (!expect(r, '(', "'(' after 'return'") || !references(r, r->g->top->ret, r->g->top) || !expect_eol(r))
        return false;
    skip_blank(r);
    if (r->pos < r->len)
        return error_at(r, r->pos, "ir-syntax", "unexpected text after the graph's return");
    return true;
}

/* IR is text: a control character other than tab and line ends (a NUL
 * in a comment, say) is refused before anything is read. Counts the line
 * breaks on the way. */
static bool control_at(reader *r, size_t i, size_t end, size_t *lines)
{
    for (; i < end; i++) {
        unsigned char c = (unsigned char)r->s[i];
        *lines += c == '\n';
        if ((c < ' ' && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return error_at(r, i, "ir-syntax", "control character 0x%02x in the text", c);
    }
    return true;
}

/* Eight bytes at a time: only a word holding a byte below 0x20 (a line
 * break, mostly) or 0x7f is looked at byte by byte. *lines: how many line
 * breaks the text has. */
static bool plain_text(reader *r, size_t *lines)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    size_t i = 0;
    *lines = 0;
    for (; i + 8 <= r->len; i += 8) {
        uint64_t w, del;
        memcpy(&w, r->s + i, 8);
        del = w ^ (0x7f * ones);
        if ((((w - 0x20 * ones) & ~w) | ((del - ones) & ~del)) & highs && !control_at(r, i, i + 8, lines))
            return false;
    }
    return control_at(r, i, r->len, lines);
}

ta_status ta_ir_read_into(ta_ir_graph *g, const char *text, size_t len, const char *source,
                          ta_diags *diags)
{
    if (!g || !text || g->top->param->noutputs || g->top->param->next != g->top->ret)
        return TA_ERR_INVALID;
    reader r = {.s = text, .len = len, .source = source ? source : "<string>", .g = g, .diags = diags,
                .status = TA_OK, .line = 1};
    classify_bytes(&r);
    if (source && !(g->source = ta_arena_strndup(g->arena, source, strlen(source)))) return TA_ERR_NOMEM;
    /* the graph and its name map take about nine bytes a byte of text: in
     * one chunk, from 128 KiB of text in huge pages (a fault per 2 MiB, not
     * per 4 KiB), each cleared by the kernel when first touched: memory
     * the graph does not take costs no time. A statement a line, most with
     * one output: the map is sized once for a value a line (a graph of
     * many-output nodes grows it) */
    size_t lines;
    if (!plain_text(&r, &lines)) return r.status;
    ta_arena_expect(g->arena, len * 9);
    if (ta_map_reserve(&g->names, lines + 16) != TA_OK) return TA_ERR_NOMEM;
    r.look_ahead = g->names.cap * sizeof *g->names.slots > ((size_t)1 << 20);
    if (!graph(&r)) return r.status == TA_OK ? TA_ERR_PARSE : r.status;
    return TA_OK;
}

ta_status ta_ir_read(const char *text, size_t len, const char *source, ta_ir_graph **out,
                     ta_diags *diags)
{
    *out = NULL;
    if (!text) return TA_ERR_INVALID;
    ta_ir_graph *g;
    ta_status st = ta_ir_graph_create(&g);
    if (st != TA_OK) return st;
    if ((st = ta_ir_read_into(g, text, len, source, diags)) != TA_OK) {
        ta_ir_graph_destroy(g);
        return st;
    }
    *out = g;
    return TA_OK;
}
