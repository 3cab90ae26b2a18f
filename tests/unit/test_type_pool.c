/* test_type_pool.c - the memory a loaded yaml's model takes: the types its
 * schemas share (schema/type_pool.c) and the arena's packed allocations
 * (schema/arena.h).
 *
 * A type without annotations is one node for the whole file, with span
 * {0, 0}, and equal to what a schema parsed on its own has; an annotated
 * type keeps its own node, span and alias record, sharing its plain
 * elements; every schema prints as written. A map kept in an arena takes
 * its small tables from it and its large ones from malloc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/map.h"
#include "tensoralias/alias.h"
#include "tensoralias/native.h"

static const char yaml[] =
    "- func: abs(Tensor self) -> Tensor\n"
    "- func: abs_(Tensor(a!) self) -> Tensor(a!)\n"
    "- func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)\n"
    "- func: cat(Tensor[] tensors, int dim=0) -> Tensor\n"
    "- func: stack(Tensor[] tensors, int dim=0) -> Tensor\n"
    "- func: split(Tensor(a -> *) self, int[1] sizes, int dim=0) -> Tensor(a)[]\n"
    "- func: clamp(Tensor self, Scalar? min=None, Scalar?   max=None) -> Tensor\n";

static ta_native_file *load(void)
{
    ta_native_file *f = NULL;
    ta_diags *d;
    assert_int_equal(ta_diags_create(&d), TA_OK);
    assert_int_equal(ta_native_load_buffer(yaml, sizeof yaml - 1, "t.yaml", NULL, 0, NULL, &f, d),
                     TA_OK);
    assert_int_equal(ta_diags_count(d), 0);
    ta_diags_destroy(d);
    return f;
}

static const ta_schema *schema(const ta_native_file *f, const char *name)
{
    const ta_native_func *fn = ta_native_find(f, name);
    assert_non_null(fn);
    assert_non_null(fn->schema);
    return fn->schema;
}

static void print_type(const ta_type *t, char *buf, size_t cap)
{
    assert_true(ta_type_print(t, buf, cap) < cap);
}

static void test_plain_types_shared(void **state)
{
    (void)state;
    ta_native_file *f = load();
    const ta_schema *abs = schema(f, "abs"), *out = schema(f, "abs.out");
    const ta_schema *cat = schema(f, "cat"), *stack = schema(f, "stack");
    /* "Tensor self" in three schemas, and abs's return: one node */
    const ta_type *t = abs->args[0].type;
    assert_ptr_equal(out->args[0].type, t);
    assert_ptr_equal(abs->rets[0].type, t);
    assert_ptr_equal(schema(f, "clamp")->args[0].type, t);
    assert_int_equal(t->span.off, 0);
    assert_int_equal(t->span.len, 0);
    assert_int_equal(t->kind, TA_TYPE_NAME);
    assert_true(ta_str_eq(t->name, "Tensor"));
    /* Tensor[] and int, with their shared element */
    assert_ptr_equal(cat->args[0].type, stack->args[0].type);
    assert_ptr_equal(cat->args[1].type, stack->args[1].type);
    assert_ptr_equal(cat->args[0].type->elems[0], t);
    /* Scalar? written with and without spaces around it: one node */
    const ta_schema *clamp = schema(f, "clamp");
    assert_ptr_equal(clamp->args[1].type, clamp->args[2].type);
    char buf[64];
    print_type(clamp->args[2].type, buf, sizeof buf);
    assert_string_equal(buf, "Scalar?");
    /* a fixed size is part of the type: int[1] is not int[] */
    const ta_type *sizes = schema(f, "split")->args[1].type;
    assert_int_equal(sizes->fixed_size, 1);
    assert_ptr_not_equal(sizes, cat->args[0].type);
    ta_native_destroy(f);
}

static void test_annotated_types_own(void **state)
{
    (void)state;
    ta_native_file *f = load();
    const ta_schema *inplace = schema(f, "abs_"), *out = schema(f, "abs.out");
    const ta_type *self = inplace->args[0].type;
    /* its own node, where it was written, with its annotation */
    assert_ptr_not_equal(self, schema(f, "abs")->args[0].type);
    assert_non_null(self->alias);
    assert_true(self->alias->write);
    assert_int_equal(self->span.len, strlen("Tensor(a!)"));
    assert_memory_equal(inplace->text + self->span.off, "Tensor(a!)", self->span.len);
    assert_ptr_not_equal(out->args[1].type, self);
    assert_true(out->args[1].is_out);
    /* Tensor(a)[]: the list is annotated, its element Tensor is shared */
    const ta_schema *split = schema(f, "split");
    const ta_type *ret = split->rets[0].type;
    assert_int_equal(ret->kind, TA_TYPE_LIST);
    assert_non_null(ret->elems[0]->alias);
    assert_memory_equal(split->text + ret->span.off, "Tensor(a)[]", ret->span.len);
    /* the alias queries see what a schema parsed alone shows */
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_schema *alone = NULL;
    assert_int_equal(ta_schema_parse(a, split->text, split->text_len, NULL, &alone, NULL), TA_OK);
    char x[256], y[256];
    assert_true(ta_schema_print_canonical(split, x, sizeof x) < sizeof x);
    assert_true(ta_schema_print_canonical(alone, y, sizeof y) < sizeof y);
    assert_string_equal(x, y);
    for (uint32_t i = 0; i < split->nargs; i++) {
        print_type(split->args[i].type, x, sizeof x);
        print_type(alone->args[i].type, y, sizeof y);
        assert_string_equal(x, y);
    }
    ta_arena_destroy(a);
    ta_native_destroy(f);
}

/* Nodes are 8-byte aligned and cleared (zalloc) or as left (take); strings
 * are packed: two short ones take less than 32 bytes together. */
static void test_arena_packing(void **state)
{
    (void)state;
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    char *s1 = ta_arena_strndup(a, "abc", 3);
    char *s2 = ta_arena_strndup(a, "de", 2);
    assert_string_equal(s1, "abc");
    assert_string_equal(s2, "de");
    assert_ptr_equal(s2, s1 + 4);
    unsigned char *z = ta_arena_zalloc(a, 20);
    assert_non_null(z);
    assert_int_equal((uintptr_t)z % 8, 0);
    for (int i = 0; i < 20; i++) assert_int_equal(z[i], 0);
    void *t = ta_arena_take(a, 3);
    assert_int_equal((uintptr_t)t % 8, 0);
    void *p = ta_arena_alloc(a, 8); /* the public allocator keeps 16 */
    assert_int_equal((uintptr_t)p % 16, 0);
    /* the next chunk is as large as expected (8 KiB more do not fit in the
     * first chunk, so they take a new one) */
    ta_arena_expect(a, (size_t)3 << 20);
    size_t before = ta_arena_bytes(a);
    assert_non_null(ta_arena_zalloc(a, 8192));
    assert_true(ta_arena_bytes(a) - before >= (size_t)3 << 20);
    /* and later ones grow from it as before */
    assert_non_null(ta_arena_zalloc(a, 100));
    ta_arena_destroy(a);
}

static void test_map_in_arena(void **state)
{
    (void)state;
    enum { N = 50000 };
    static char keys[N][8];
    ta_arena *a;
    assert_int_equal(ta_arena_create(&a), TA_OK);
    ta_map m;
    ta_map_init_in(&m, NULL, a);
    size_t before = ta_arena_bytes(a);
    for (int i = 0; i < N; i++) {
        snprintf(keys[i], sizeof keys[i], "k%d", i);
        assert_int_equal(ta_map_add(&m, keys[i], strlen(keys[i]), ta_map_int(i), NULL), TA_OK);
        if (i == 1000) {
            /* small: in the arena */
            assert_true(m.slots_in_arena);
            assert_true(ta_arena_bytes(a) > before);
        }
    }
    assert_false(m.slots_in_arena); /* 64 Ki slots: malloc'd */
    for (int i = 0; i < N; i += 7) {
        const ta_map_entry *e = ta_map_find_str(&m, keys[i]);
        assert_non_null(e);
        assert_int_equal(e->value.i, i);
    }
    assert_null(ta_map_find_str(&m, "k-1"));
    ta_map_clear(&m);
    /* a cleared map starts again in the arena */
    assert_int_equal(ta_map_reserve(&m, 10), TA_OK);
    assert_true(m.slots_in_arena);
    ta_map_clear(&m);
    ta_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_types_shared),
        cmocka_unit_test(test_annotated_types_own),
        cmocka_unit_test(test_arena_packing),
        cmocka_unit_test(test_map_in_arena),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
