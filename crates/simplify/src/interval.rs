//! Intervals over the rationals with open or closed, finite or infinite ends.

use std::cmp::Ordering;

use num_rational::BigRational;
use num_traits::{Signed, Zero};

/// One end of an [`Interval`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Bound {
    /// The end point.
    pub value: BigRational,
    /// True if the end point itself is excluded.
    pub strict: bool,
}

/// A (possibly unbounded) interval of rationals; `None` ends are infinite.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Interval {
    /// Lower end (`None`: minus infinity).
    pub lower: Option<Bound>,
    /// Upper end (`None`: plus infinity).
    pub upper: Option<Bound>,
}

impl Interval {
    /// The whole line.
    pub fn unbounded() -> Self {
        Self::default()
    }

    /// The single point `v`.
    pub fn point(v: BigRational) -> Self {
        Interval {
            lower: Some(Bound {
                value: v.clone(),
                strict: false,
            }),
            upper: Some(Bound {
                value: v,
                strict: false,
            }),
        }
    }

    /// `[v, +inf)` or `(v, +inf)`.
    pub fn at_least(v: BigRational, strict: bool) -> Self {
        Interval {
            lower: Some(Bound { value: v, strict }),
            upper: None,
        }
    }

    /// `(-inf, v]` or `(-inf, v)`.
    pub fn at_most(v: BigRational, strict: bool) -> Self {
        Interval {
            lower: None,
            upper: Some(Bound { value: v, strict }),
        }
    }

    /// True if no number lies in the interval.
    pub fn is_empty(&self) -> bool {
        match (&self.lower, &self.upper) {
            (Some(l), Some(u)) => match l.value.cmp(&u.value) {
                Ordering::Greater => true,
                Ordering::Equal => l.strict || u.strict,
                Ordering::Less => false,
            },
            _ => false,
        }
    }

    /// The value, if the interval is a single point.
    pub fn as_point(&self) -> Option<BigRational> {
        match (&self.lower, &self.upper) {
            (Some(l), Some(u)) if !l.strict && !u.strict && l.value == u.value => {
                Some(l.value.clone())
            }
            _ => None,
        }
    }

    /// True if `v` lies in the interval.
    pub fn contains(&self, v: &BigRational) -> bool {
        let lo_ok = match &self.lower {
            None => true,
            Some(b) => {
                if b.strict {
                    v > &b.value
                } else {
                    v >= &b.value
                }
            }
        };
        let hi_ok = match &self.upper {
            None => true,
            Some(b) => {
                if b.strict {
                    v < &b.value
                } else {
                    v <= &b.value
                }
            }
        };
        lo_ok && hi_ok
    }

    /// The intersection.
    pub fn intersect(&self, other: &Interval) -> Interval {
        // The tighter of two bounds on one side: where `a` compares to `b`
        // as `a_tighter`, `a`; on a tie the strict one; no bound is no limit.
        let tighter = |a: &Option<Bound>, b: &Option<Bound>, a_tighter: Ordering| match (a, b) {
            (None, x) | (x, None) => x.clone(),
            (Some(a), Some(b)) => Some(match a.value.cmp(&b.value) {
                Ordering::Equal => Bound {
                    value: a.value.clone(),
                    strict: a.strict || b.strict,
                },
                order if order == a_tighter => a.clone(),
                _ => b.clone(),
            }),
        };
        Interval {
            lower: tighter(&self.lower, &other.lower, Ordering::Greater),
            upper: tighter(&self.upper, &other.upper, Ordering::Less),
        }
    }

    /// `{x + y}` for x, y in the intervals.
    pub fn add(&self, other: &Interval) -> Interval {
        let f = |a: &Option<Bound>, b: &Option<Bound>| match (a, b) {
            (Some(x), Some(y)) => Some(Bound {
                value: &x.value + &y.value,
                strict: x.strict || y.strict,
            }),
            _ => None,
        };
        Interval {
            lower: f(&self.lower, &other.lower),
            upper: f(&self.upper, &other.upper),
        }
    }

    /// `{c * x}`.
    pub fn scale(&self, c: &BigRational) -> Interval {
        if c.is_zero() {
            return Interval::point(BigRational::zero());
        }
        let m = |b: &Option<Bound>| {
            b.as_ref().map(|b| Bound {
                value: &b.value * c,
                strict: b.strict,
            })
        };
        if c.is_positive() {
            Interval {
                lower: m(&self.lower),
                upper: m(&self.upper),
            }
        } else {
            Interval {
                lower: m(&self.upper),
                upper: m(&self.lower),
            }
        }
    }

    /// `{c + x}`.
    pub fn shift(&self, c: &BigRational) -> Interval {
        self.add(&Interval::point(c.clone()))
    }

    /// A superset of `{x * y}` (ends become closed).
    pub fn mul(&self, other: &Interval) -> Interval {
        if let Some(c) = self.as_point() {
            return other.scale(&c);
        }
        if let Some(c) = other.as_point() {
            return self.scale(&c);
        }
        // Extended reals: None below = -inf, None above = +inf.
        #[derive(Clone)]
        enum Ext {
            NegInf,
            Fin(BigRational),
            PosInf,
        }
        fn mul(a: &Ext, b: &Ext) -> Ext {
            let sign = |e: &Ext| match e {
                Ext::NegInf => -1,
                Ext::PosInf => 1,
                Ext::Fin(v) => {
                    if v.is_positive() {
                        1
                    } else if v.is_negative() {
                        -1
                    } else {
                        0
                    }
                }
            };
            match (a, b) {
                (Ext::Fin(x), Ext::Fin(y)) => Ext::Fin(x * y),
                _ => match sign(a) * sign(b) {
                    0 => Ext::Fin(BigRational::zero()),
                    s if s > 0 => Ext::PosInf,
                    _ => Ext::NegInf,
                },
            }
        }
        fn cmp(a: &Ext, b: &Ext) -> Ordering {
            match (a, b) {
                (Ext::NegInf, Ext::NegInf) | (Ext::PosInf, Ext::PosInf) => Ordering::Equal,
                (Ext::NegInf, _) | (_, Ext::PosInf) => Ordering::Less,
                (_, Ext::NegInf) | (Ext::PosInf, _) => Ordering::Greater,
                (Ext::Fin(x), Ext::Fin(y)) => x.cmp(y),
            }
        }
        let lo = |b: &Option<Bound>| {
            b.as_ref()
                .map_or(Ext::NegInf, |b| Ext::Fin(b.value.clone()))
        };
        let hi = |b: &Option<Bound>| {
            b.as_ref()
                .map_or(Ext::PosInf, |b| Ext::Fin(b.value.clone()))
        };
        let xs = [lo(&self.lower), hi(&self.upper)];
        let ys = [lo(&other.lower), hi(&other.upper)];
        let mut prods = Vec::with_capacity(4);
        for x in &xs {
            for y in &ys {
                prods.push(mul(x, y));
            }
        }
        let min = prods
            .iter()
            .min_by(|a, b| cmp(a, b))
            .cloned()
            .unwrap_or(Ext::NegInf);
        let max = prods
            .iter()
            .max_by(|a, b| cmp(a, b))
            .cloned()
            .unwrap_or(Ext::PosInf);
        Interval {
            lower: match min {
                Ext::Fin(v) => Some(Bound {
                    value: v,
                    strict: false,
                }),
                _ => None,
            },
            upper: match max {
                Ext::Fin(v) => Some(Bound {
                    value: v,
                    strict: false,
                }),
                _ => None,
            },
        }
    }

    /// A superset of `{x^k}`.
    pub fn pow(&self, k: u32) -> Interval {
        if k == 0 {
            return Interval::point(num_traits::One::one());
        }
        let mut acc = self.clone();
        for _ in 1..k {
            acc = acc.mul(self);
        }
        if k & 1 == 0 {
            acc = acc.intersect(&Interval::at_least(BigRational::zero(), false));
        }
        acc
    }

    /// For integer-valued quantities: closes the ends at the nearest integers
    /// inside (`(1/2, 3]` becomes `[1, 3]`).
    pub fn tighten_integer(&self) -> Interval {
        let lower = self.lower.as_ref().map(|b| {
            let v = if b.strict {
                b.value.floor() + BigRational::from_integer(1.into())
            } else {
                b.value.ceil()
            };
            Bound {
                value: v,
                strict: false,
            }
        });
        let upper = self.upper.as_ref().map(|b| {
            let v = if b.strict {
                b.value.ceil() - BigRational::from_integer(1.into())
            } else {
                b.value.floor()
            };
            Bound {
                value: v,
                strict: false,
            }
        });
        Interval { lower, upper }
    }
}
