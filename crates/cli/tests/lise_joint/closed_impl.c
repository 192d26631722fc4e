#pragma TASS input {N >= 0} int
#define N 3
#pragma TASS output
int total;
int main(void) {
    total = 0;
    return 0;
}
