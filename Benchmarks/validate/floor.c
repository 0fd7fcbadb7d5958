/* The floor of `planmark validate --report csv`: a plain read + parse + write of the same files on one
 * core, with no geometry. It reads the regions file (read only, as planmark must), reads the markers
 * CSV into memory, parses each row's id, x and y (strtod, as a plain C program would), and writes one
 * line a marker of the same size class as the report (`id,x,y,true,,ROOM:inside;ALLOWED:inside`, the
 * coordinates copied as text), in one buffered stream to stdout.
 *
 *   cc -O2 -o floor floor.c && ./floor REGIONS MARKERS.csv > out.csv
 *
 * Complexity: O(n) for n input bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(66); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { perror(path); exit(74); }
    buf[n] = 0;
    fclose(f);
    *size = (size_t)n;
    return buf;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: floor REGIONS MARKERS.csv\n"); return 64; }
    size_t rsize, size;
    free(slurp(argv[1], &rsize));
    char *in = slurp(argv[2], &size);
    char *out = malloc(size * 3 + 64);
    char *o = out;
    const char *p = memchr(in, '\n', size);
    if (!p) return 65;
    p++;
    o += sprintf(o, "id,x,y,valid,reason,regions\n");
    const char *end = in + size;
    double sum = 0;
    long rows = 0;
    static const char inside[] = ",true,,R20-25:inside;ALLOWED:inside\n";
    static const char outside[] = ",false,outside-allowed-area,\n";
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        const char *c1 = memchr(p, ',', (size_t)(eol - p));
        const char *c2 = c1 ? memchr(c1 + 1, ',', (size_t)(eol - c1 - 1)) : NULL;
        if (!c2) return 65;
        long id = strtol(p, NULL, 10);
        char *xe, *ye;
        double x = strtod(c1 + 1, &xe);
        double y = strtod(c2 + 1, &ye);
        if (xe != c2 || ye != eol) return 65;
        sum += x + y + (double)id;
        memcpy(o, p, (size_t)(eol - p));
        o += eol - p;
        if (x >= 500 && x <= 19500 && y >= 500 && y <= 14500) {
            memcpy(o, inside, sizeof inside - 1);
            o += sizeof inside - 1;
        } else {
            memcpy(o, outside, sizeof outside - 1);
            o += sizeof outside - 1;
        }
        rows++;
        p = eol + 1;
    }
    if (fwrite(out, 1, (size_t)(o - out), stdout) != (size_t)(o - out)) return 74;
    fprintf(stderr, "floor: %ld rows, checksum %.6g\n", rows, sum);
    return 0;
}
