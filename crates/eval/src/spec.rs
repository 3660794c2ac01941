//! Which evaluator to use, as a user names it: `baseline`, `net` (the
//! embedded network) or `net=PATH`. Loading gives the evaluator searches
//! use (networks with their first layer in i16) and an identity that
//! names it exactly (a network by its weights' CRC32), so a resumed run can
//! refuse other weights under the same name.

use crate::{Baseline, Evaluator, Network, QuantizedNetwork, WeightsError};
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalSpec {
    Baseline,
    /// The embedded default network.
    Net,
    NetFile(PathBuf),
}

#[derive(Debug, thiserror::Error)]
pub enum EvalSpecError {
    #[error("unknown evaluator '{0}' (expected baseline, net or net=PATH)")]
    Unknown(String),
    #[error(transparent)]
    Weights(#[from] WeightsError),
    #[error("evaluator {stored} is not available now (found {found})")]
    Changed { stored: String, found: String },
}

impl std::str::FromStr for EvalSpec {
    type Err = EvalSpecError;
    fn from_str(s: &str) -> Result<EvalSpec, EvalSpecError> {
        match s {
            "baseline" => Ok(EvalSpec::Baseline),
            "net" => Ok(EvalSpec::Net),
            _ => match s.strip_prefix("net=") {
                Some(path) if !path.is_empty() => Ok(EvalSpec::NetFile(path.into())),
                _ => Err(EvalSpecError::Unknown(s.into())),
            },
        }
    }
}

impl std::fmt::Display for EvalSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalSpec::Baseline => write!(f, "baseline"),
            EvalSpec::Net => write!(f, "net"),
            EvalSpec::NetFile(p) => write!(f, "net={}", p.display()),
        }
    }
}

impl EvalSpec {
    /// The evaluator and its identity (`baseline`, `net:embedded:CRC`,
    /// `net:PATH:CRC`).
    pub fn load(&self) -> Result<(Box<dyn Evaluator>, String), EvalSpecError> {
        match self {
            EvalSpec::Baseline => Ok((Box::new(Baseline), "baseline".into())),
            EvalSpec::Net => {
                let net = Network::embedded_default();
                let name = format!("net:embedded:{:08x}", net.checksum());
                Ok((Box::new(QuantizedNetwork::new(&net)), name))
            }
            EvalSpec::NetFile(path) => {
                let net = Network::load(path)?;
                let name = format!("net:{}:{:08x}", path.display(), net.checksum());
                Ok((Box::new(QuantizedNetwork::new(&net)), name))
            }
        }
    }

    /// The evaluator an identity from [`EvalSpec::load`] names, loaded again
    /// (for a resumed run): an error if the weights found now are others.
    pub fn reload(identity: &str) -> Result<Box<dyn Evaluator>, EvalSpecError> {
        let (eval, found) = EvalSpec::from_identity(identity)?.load()?;
        if found != identity {
            return Err(EvalSpecError::Changed { stored: identity.into(), found });
        }
        Ok(eval)
    }

    /// The spec an identity from [`EvalSpec::load`] was loaded from.
    pub fn from_identity(identity: &str) -> Result<EvalSpec, EvalSpecError> {
        if identity == "baseline" {
            return Ok(EvalSpec::Baseline);
        }
        if let Some(rest) = identity.strip_prefix("net:") {
            if rest.starts_with("embedded:") {
                return Ok(EvalSpec::Net);
            }
            if let Some((path, _crc)) = rest.rsplit_once(':') {
                return Ok(EvalSpec::NetFile(path.into()));
            }
        }
        Err(EvalSpecError::Unknown(identity.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_print_and_load() {
        for s in ["baseline", "net", "net=some/file.hnet"] {
            let spec: EvalSpec = s.parse().unwrap();
            assert_eq!(spec.to_string(), s);
        }
        assert!("network".parse::<EvalSpec>().is_err());
        assert!("net=".parse::<EvalSpec>().is_err());
        let (_, id) = EvalSpec::Net.load().unwrap();
        assert!(id.starts_with("net:embedded:"));
        assert_eq!(EvalSpec::from_identity(&id).unwrap(), EvalSpec::Net);
        assert_eq!(EvalSpec::from_identity("baseline").unwrap(), EvalSpec::Baseline);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.hnet");
        Network::random(8, 1).save(&path).unwrap();
        let spec = EvalSpec::NetFile(path.clone());
        let (_, id) = spec.load().unwrap();
        assert_eq!(EvalSpec::from_identity(&id).unwrap(), spec);
        assert!(EvalSpec::reload(&id).is_ok());
        Network::random(8, 2).save(&path).unwrap();
        let changed = EvalSpec::reload(&id).err().unwrap();
        assert!(matches!(changed, EvalSpecError::Changed { .. }), "{changed}");
        let missing = EvalSpec::NetFile(dir.path().join("none.hnet")).load().err().unwrap();
        assert!(missing.to_string().contains("none.hnet"), "{missing}");
    }
}
