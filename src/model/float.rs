//! Reading numbers back that JSON could not hold.
//!
//! JSON has no infinity or NaN: serde_json writes either as `null`. A value
//! that is not a number (a median's interval a clock could not resolve,
//! written by an older cargo nbench) must not make a whole stored run or
//! baseline unreadable, so every stored float reads `null` back as NaN,
//! which reports show as `n/a`. Fields use
//! `#[serde(deserialize_with = "float::lenient")]`.

use serde::{Deserialize, Deserializer};

/// A stored form whose floats may be `null`.
pub trait Lenient: Sized {
    /// The same shape with `Option<f64>` for each float.
    type Stored: for<'de> Deserialize<'de>;
    /// `None` becomes NaN.
    fn from_stored(stored: Self::Stored) -> Self;
}

fn nan_if_none(x: Option<f64>) -> f64 {
    x.unwrap_or(f64::NAN)
}

impl Lenient for f64 {
    type Stored = Option<f64>;
    fn from_stored(x: Option<f64>) -> f64 {
        nan_if_none(x)
    }
}

impl Lenient for [f64; 2] {
    type Stored = [Option<f64>; 2];
    fn from_stored(x: [Option<f64>; 2]) -> [f64; 2] {
        x.map(nan_if_none)
    }
}

impl<T: Lenient> Lenient for Vec<T> {
    type Stored = Vec<T::Stored>;
    fn from_stored(x: Vec<T::Stored>) -> Vec<T> {
        x.into_iter().map(T::from_stored).collect()
    }
}

/// Deserialises `T`, reading `null` where a float belongs as NaN.
pub fn lenient<'de, D: Deserializer<'de>, T: Lenient>(d: D) -> Result<T, D::Error> {
    T::Stored::deserialize(d).map(T::from_stored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Stored {
        #[serde(deserialize_with = "lenient")]
        x: f64,
        #[serde(deserialize_with = "lenient")]
        ci: [f64; 2],
        #[serde(deserialize_with = "lenient")]
        all: Vec<f64>,
        #[serde(deserialize_with = "lenient")]
        points: Vec<[f64; 2]>,
    }

    #[test]
    fn null_reads_as_nan_and_numbers_as_themselves() {
        let s: Stored = serde_json::from_str(
            r#"{"x": null, "ci": [1.5, null], "all": [null, 2], "points": [[1, null]]}"#,
        )
        .unwrap();
        assert!(s.x.is_nan());
        assert_eq!(s.ci[0], 1.5);
        assert!(s.ci[1].is_nan());
        assert!(s.all[0].is_nan() && s.all[1] == 2.0);
        assert!(s.points[0][0] == 1.0 && s.points[0][1].is_nan());
        let bad =
            serde_json::from_str::<Stored>(r#"{"x": "a", "ci": [1, 2], "all": [], "points": []}"#);
        assert!(bad.is_err(), "text is still not a number");
    }
}
