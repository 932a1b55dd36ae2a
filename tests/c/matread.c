/* SPDX-License-Identifier: MIT */
/*
** matread FILE: prints every variable of a MATLAB file as matio reads it, one line per
** array, for tests/lua/test_mat.lua to compare with the run that wrote it:
**
**   version 5|7.3
**   <path> double <rows>x<cols> <%a of each value, column by column>
**   <path> char <rows>x<cols> <the text as UTF-8, "\n" and "\\" escaped>
**   <path> cell <rows>x<cols>            then its elements as <path>{i}
**   <path> struct <rows>x<cols> <fields> then its fields as <path>.<field>
**   <path> other <class>
**
** Doubles are printed in hexadecimal (%a): the test compares them bit for bit.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <matio.h>

static void print_text(const uint16_t *u, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t c = u[i];
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < n)
            c = 0x10000 + ((c - 0xD800) << 10) + (u[++i] - 0xDC00u);
        if (c == '\n')
            fputs("\\n", stdout);
        else if (c == '\\')
            fputs("\\\\", stdout);
        else if (c < 0x80)
            putchar((int)c);
        else if (c < 0x800)
            printf("%c%c", 0xC0 | c >> 6, 0x80 | (c & 0x3F));
        else if (c < 0x10000)
            printf("%c%c%c", 0xE0 | c >> 12, 0x80 | (c >> 6 & 0x3F), 0x80 | (c & 0x3F));
        else
            printf("%c%c%c%c", 0xF0 | c >> 18, 0x80 | (c >> 12 & 0x3F), 0x80 | (c >> 6 & 0x3F),
                   0x80 | (c & 0x3F));
    }
}

static void print_var(const char *path, matvar_t *v)
{
    size_t rows = v->rank >= 1 ? v->dims[0] : 0, cols = v->rank >= 2 ? v->dims[1] : 1;
    size_t n = rows * cols;
    char sub[1024];
    switch (v->class_type) {
    case MAT_C_DOUBLE:
        printf("%s double %zux%zu", path, rows, cols);
        for (size_t i = 0; i < n; i++) printf(" %a", ((const double *)v->data)[i]);
        putchar('\n');
        break;
    case MAT_C_CHAR:
        printf("%s char %zux%zu ", path, rows, cols);
        if (v->data_type == MAT_T_UINT16 || v->data_type == MAT_T_UTF16)
            print_text(v->data, n);
        else
            printf("(data type %d)", (int)v->data_type);
        putchar('\n');
        break;
    case MAT_C_CELL:
        printf("%s cell %zux%zu\n", path, rows, cols);
        for (size_t i = 0; i < n; i++) {
            snprintf(sub, sizeof sub, "%s{%zu}", path, i + 1);
            print_var(sub, Mat_VarGetCell(v, (int)i));
        }
        break;
    case MAT_C_STRUCT: {
        unsigned nf = Mat_VarGetNumberOfFields(v);
        char *const *names = Mat_VarGetStructFieldnames(v);
        printf("%s struct %zux%zu", path, rows, cols);
        for (unsigned f = 0; f < nf; f++) printf(" %s", names[f]);
        putchar('\n');
        for (unsigned f = 0; n == 1 && f < nf; f++) {
            snprintf(sub, sizeof sub, "%s.%s", path, names[f]);
            print_var(sub, Mat_VarGetStructFieldByIndex(v, f, 0));
        }
        break;
    }
    default: printf("%s other %d\n", path, (int)v->class_type);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: matread FILE\n");
        return 2;
    }
    mat_t *mat = Mat_Open(argv[1], MAT_ACC_RDONLY);
    if (mat == NULL) {
        fprintf(stderr, "matread: cannot open %s\n", argv[1]);
        return 1;
    }
    printf("version %s\n", Mat_GetVersion(mat) == MAT_FT_MAT73 ? "7.3" : "5");
    matvar_t *v;
    while ((v = Mat_VarReadNext(mat)) != NULL) {
        print_var(v->name, v);
        Mat_VarFree(v);
    }
    Mat_Close(mat);
    return 0;
}
