/* fevs/seq/list_free_bad.c -- build, sum and free a linked list, but the
 * freeing loop reads a node after freeing it.
 *
 * BUG: "free(p); p = p->next;" dereferences the freed node p.  Most C
 * libraries leave the freed memory intact for a while, so it usually "works".
 *
 * Expected verdict: tass verify list_free_bad.c
 *   violated: invalid-pointer at the "p = p->next" line (any N >= 1)
 * Fixed twin: list_free_ok.c.
 */
#include <stdio.h>
#include <stdlib.h>

#pragma TASS input int
#define B 4
#pragma TASS input {0 <= N && N <= B} int
#define N 4

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double sum;

struct node {
    double value;
    struct node *next;
};

int main(void) {
    struct node *head = NULL, *p;
    int i;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = 1.25 * i;
#endif
    for (i = N - 1; i >= 0; i--) {
        p = (struct node *)malloc(sizeof(struct node));
        p->value = a[i];
        p->next = head;
        head = p;
    }
    sum = 0.0;
    for (p = head; p != NULL; p = p->next)
        sum += p->value;
    p = head;
    while (p != NULL) {
        free(p);
        p = p->next; /* BUG: p was just freed */
    }
    return 0;
}
