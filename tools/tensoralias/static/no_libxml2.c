/* no_libxml2.c - linked into the command with igraph's static archive only.
 *
 * The command writes GraphML (igraph_write_graph_graphml) and never reads
 * it, but igraph keeps its reader in the same object file, and the reader's
 * calls into libxml2 would make every start of the command load libxml2
 * and, through it, ICU, zlib, liblzma and libstdc++: 0.7 ms of each run,
 * half of the command's start-up. These stand in for the calls the reader
 * makes: the parser is never created (igraph_read_graph_graphml fails with
 * an error), and the rest is unreachable. They are hidden: the command
 * exports its symbols (-rdynamic) to the kernel libraries it loads, and
 * none of those must find a libxml2 here. A program that reads GraphML
 * links igraph's shared library, and libxml2 with it. */
#include <stddef.h>
#include <stdlib.h>

#define HIDDEN __attribute__((visibility("hidden")))

typedef void (*generic_error)(void *ctx, const char *msg, ...);
typedef void (*structured_error)(void *ctx, void *error);

static generic_error generic;
static void *generic_ctx;
static structured_error structured;
static void *structured_ctx;

HIDDEN generic_error *__xmlGenericError(void) { return &generic; }
HIDDEN void **__xmlGenericErrorContext(void) { return &generic_ctx; }
HIDDEN structured_error *__xmlStructuredError(void) { return &structured; }
HIDDEN void **__xmlStructuredErrorContext(void) { return &structured_ctx; }

HIDDEN void xmlInitParser(void) {}
HIDDEN void xmlSetGenericErrorFunc(void *ctx, generic_error f)
{
    generic_ctx = ctx;
    generic = f;
}
HIDDEN void xmlSetStructuredErrorFunc(void *ctx, structured_error f)
{
    structured_ctx = ctx;
    structured = f;
}

/* No parser: igraph's reader stops here with an error. */
HIDDEN void *xmlCreatePushParserCtxt(void *sax, void *user, const char *chunk, int size,
                                     const char *filename)
{
    (void)sax, (void)user, (void)chunk, (void)size, (void)filename;
    return NULL;
}

/* libxml2's deallocator, a variable; unused without a parser. */
HIDDEN void (*xmlFree)(void *) = free;

/* Unreachable without a parser. */
HIDDEN int xmlCtxtUseOptions(void *ctxt, int options) { return (void)ctxt, (void)options, -1; }
HIDDEN int xmlParseChunk(void *ctxt, const char *chunk, int size, int terminate)
{
    return (void)ctxt, (void)chunk, (void)size, (void)terminate, -1;
}
HIDDEN void xmlFreeParserCtxt(void *ctxt) { (void)ctxt; }
HIDDEN void xmlFreeDoc(void *doc) { (void)doc; }
HIDDEN void *xmlGetPredefinedEntity(const unsigned char *name) { return (void)name, NULL; }
HIDDEN int xmlStrEqual(const unsigned char *a, const unsigned char *b) { return (void)a, (void)b, 0; }
HIDDEN int xmlStrncmp(const unsigned char *a, const unsigned char *b, int n)
{
    return (void)a, (void)b, (void)n, 1;
}
HIDDEN unsigned char *xmlStrndup(const unsigned char *s, int n) { return (void)s, (void)n, NULL; }
