/* fevs/seq/list_free_ok.c -- build a linked list of the N inputs, sum it,
 * and free it node by node, reading each next pointer before the free.
 *
 * Inputs: the bound B, 0 <= N <= B, the array a.  Output: sum.
 * Expected verdict: tass verify list_free_ok.c   holds
 * Buggy twin: list_free_bad.c.
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
    struct node *head = NULL, *p, *q;
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
        q = p->next;
        free(p);
        p = q;
    }
#ifdef FEVS_CONCRETE
    printf("OUT sum = %.17g\n", sum);
#endif
    return 0;
}
