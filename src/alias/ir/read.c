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
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alias/ir/ir_internal.h"

enum { MAX_BLOCK_DEPTH = 256 };

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
} reader;

/* The 1-based line of r->pos, counted from the last position asked about
 * (the reader moves forward, and back only over a line's look-ahead). */
static uint32_t cur_line(reader *r)
{
    for (; r->line_pos < r->pos; r->line_pos++) r->line += r->s[r->line_pos] == '\n';
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
    while (r->pos < r->len && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' || r->s[r->pos] == '\r'))
        r->pos++;
}

/* Spaces and line breaks. */
static void skip_blank(reader *r)
{
    while (r->pos < r->len && isspace((unsigned char)r->s[r->pos])) r->pos++;
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

/* A value name is what torch's debug names are made of: module and
 * variable names, with ".N" suffixes ("x.1", "block1-0"): any printable
 * byte but the IR's own punctuation. */
static bool name_char(char c)
{
    switch (c) {
    case ',': case '(': case ')': case '[': case ']': case ':': case '=':
    case '#': case '%': case '"': case '\'':
        return false;
    default:
        return (unsigned char)c > ' ' && c != 0x7f;
    }
}

/* NAME after '%': the span of name characters. */
static bool value_name(reader *r, size_t *start, size_t *n)
{
    skip_spaces(r);
    if (!peek(r, '%')) return syntax(r, "a value ('%name')");
    r->pos++;
    *start = r->pos;
    while (r->pos < r->len && name_char(r->s[r->pos])) r->pos++;
    *n = r->pos - *start;
    if (!*n) return syntax(r, "a value name after '%'");
    return true;
}

/* type, after ':' */
static const ta_ir_type *type_after_colon(reader *r)
{
    skip_spaces(r);
    size_t err = 0;
    const char *msg = NULL;
    const ta_ir_type *t = ir_type_parse_at(&r->g->types, r->s, r->len, &r->pos, &err, &msg);
    if (!t) {
        if (err == SIZE_MAX) return oom(r), NULL;
        error_at(r, err, "ir-syntax", "%s", msg);
    }
    return t;
}

/* ---- values ------------------------------------------------------------------- */

/* Defines %name as output of def (a node or a param sentinel). */
static ta_ir_value *define(reader *r, ta_ir_node *def, size_t start, size_t n, const ta_ir_type *t)
{
    bool taken;
    ta_ir_value *v = ir_value_define(r->g, def, r->s + start, n, t, &taken);
    if (taken) error_at(r, start - 1, "ir-redefined", "value '%%%.*s' is defined twice", (int)n, r->s + start);
    else if (!v) oom(r);
    return v;
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

/* VALUE, a use by user in block b */
static ta_ir_value *reference(reader *r, const ta_ir_node *user, const ta_ir_block *b)
{
    size_t start, n;
    if (!value_name(r, &start, &n)) return NULL;
    ta_map_entry *e = ta_map_find(&r->g->names, r->s + start, n);
    if (!e || !e->value.ptr || own_output(e->value.ptr, user, b)) {
        error_at(r, start - 1, "ir-undefined", "value '%%%.*s' is used before it is defined", (int)n,
                 r->s + start);
        return NULL;
    }
    return e->value.ptr;
}

/* refs := [VALUE {',' VALUE}] ')'; each is added as an input of user. */
static bool references(reader *r, ta_ir_node *user, const ta_ir_block *b)
{
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
static bool param(reader *r, ta_ir_block *b)
{
    size_t start, n;
    if (!value_name(r, &start, &n)) return false;
    skip_spaces(r);
    const ta_ir_type *t = NULL;
    if (peek(r, ':')) {
        r->pos++;
        if (!(t = type_after_colon(r))) return false;
    }
    return define(r, b->param, start, n, t) != NULL;
}

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
        while (r->pos < r->len && (isalnum((unsigned char)r->s[r->pos]) || r->s[r->pos] == '_')) r->pos++;
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
    while (r->pos < r->len && (isalnum((unsigned char)r->s[r->pos]) || r->s[r->pos] == '_')) r->pos++;
    if (r->pos == start || !peek_word(r, "::")) return syntax(r, "an operator ('ns::name')"), NULL;
    r->pos += 2;
    size_t name = r->pos;
    while (r->pos < r->len && (isalnum((unsigned char)r->s[r->pos]) || r->s[r->pos] == '_')) r->pos++;
    if (r->pos == name) return syntax(r, "an operator name after '::'"), NULL;
    if (peek(r, '.')) {
        error_at(r, r->pos, "ir-syntax", "an operator in IR has no overload name");
        ta_diag_hint(r->diags, "write '%.*s(...)': the overload is chosen from the argument types",
                     (int)(r->pos - start), r->s + start);
        return NULL;
    }
    const ir_kind_info *k = ir_graph_kind(r->g, r->s + start, r->pos - start);
    if (!k) oom(r);
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
    while (r->pos < r->len && isdigit((unsigned char)r->s[r->pos])) r->pos++;
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
        if (!peek_word(r, "block") || r->pos + 5 >= r->len || !isdigit((unsigned char)r->s[r->pos + 5])) {
            r->pos = save;
            return true;
        }
        if (!block(r, owner)) return false;
    }
}

/* One output: VALUE ':' type (the type is Tensor when left out). */
static bool output(reader *r, ta_ir_node *node)
{
    size_t start, n;
    if (!value_name(r, &start, &n)) return false;
    skip_spaces(r);
    const ta_ir_type *t = NULL;
    if (peek(r, ':')) {
        r->pos++;
        if (!(t = type_after_colon(r))) return false;
    }
    return define(r, node, start, n, t) != NULL;
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
            if (!output(r, node)) return false;
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
 * in a comment, say) is refused before anything is read. */
static bool plain_text(reader *r)
{
    for (size_t i = 0; i < r->len; i++) {
        unsigned char c = (unsigned char)r->s[i];
        if ((c < ' ' && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return error_at(r, i, "ir-syntax", "control character 0x%02x in the text", c);
    }
    return true;
}

ta_status ta_ir_read_into(ta_ir_graph *g, const char *text, size_t len, const char *source,
                          ta_diags *diags)
{
    if (!g || !text || g->top->param->noutputs || g->top->param->next != g->top->ret)
        return TA_ERR_INVALID;
    reader r = {text, len, 0, source ? source : "<string>", g, diags, 0, TA_OK, 1, 0};
    if (source && !(g->source = ta_arena_strndup(g->arena, source, strlen(source)))) return TA_ERR_NOMEM;
    /* about one value per 30 bytes of text: the name map is sized once */
    if (ta_map_reserve(&g->names, len / 30 + 16) != TA_OK) return TA_ERR_NOMEM;
    if (!plain_text(&r) || !graph(&r)) return r.status == TA_OK ? TA_ERR_PARSE : r.status;
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
