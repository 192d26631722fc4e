#ifndef __TASS_MATH_H
#define __TASS_MATH_H
#define M_PI 3.14159265358979323846
#define M_E 2.7182818284590452354
double sqrt(double x);
double fabs(double x);
double pow(double x, double y);
double exp(double x);
double log(double x);
double sin(double x);
double cos(double x);
double floor(double x);
double ceil(double x);
double fmin(double x, double y);
double fmax(double x, double y);
#endif
