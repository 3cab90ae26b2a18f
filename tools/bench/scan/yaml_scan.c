/* yaml_scan.c - the floor a whole `tensoralias check` process is compared
 * with (bench_command): a process that reads one file and runs libyaml's
 * event scan over it, linked with libyaml alone. Prints the event count. */
#include <stdio.h>
#include <stdlib.h>

#include "../benchlib.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: yaml_scan FILE.yaml\n");
        return 2;
    }
    size_t len;
    char *text = bench_read_file(argv[1], &len);
    if (!text) return 2;
    printf("%zu events\n", bench_yaml_scan(text, len));
    free(text);
    return 0;
}
