/* plugin.h - opening a kernel library of the build under test the way
 * ta_registry_load_plugin does (dlopen, then its TA_PLUGIN_ENTRY), for tests
 * that call the entry point themselves. */
#ifndef TA_TEST_PLUGIN_H
#define TA_TEST_PLUGIN_H

#include "tensoralias/exec.h"

/* Opens $BUILD/<name> (handle in *handle, for dlclose) and returns its
 * registration entry point; NULL (and a message on stderr) on failure. */
ta_plugin_register_fn ta_test_plugin_entry(const char *name, void **handle);

#endif
