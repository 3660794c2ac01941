//! Which evaluator to use, as a user names it: `baseline`, `net` (the
//! embedded default network), `play` (the embedded network `play` uses),
//! `net=PATH`, `mirror:E` (E's value of the well's mirror
//! image, E one of the above) or `mean=A,B,...` (the mean of those; a
//! member's path holds no comma). Loading gives the evaluator searches use
//! (networks with their first layer in i16) and an identity that names it
//! exactly (a network by its weights' CRC32), so a resumed run can refuse
//! other weights under the same name.

use crate::{Baseline, Evaluator, Mean, Mirror, Network, QuantizedNetwork, WeightsError};
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalSpec {
    Baseline,
    /// The embedded default network.
    Net,
    NetFile(PathBuf),
    /// An evaluator (not a mean or a mirror) read through a mirror.
    Mirror(Box<EvalSpec>),
    /// The mean value of two or more evaluators (none of them a mean).
    Mean(Vec<EvalSpec>),
}

#[derive(Debug, thiserror::Error)]
pub enum EvalSpecError {
    #[error("unknown evaluator '{0}' (expected baseline, net, play, net=PATH, mirror:E or mean=A,B,...)")]
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
            _ => {
                if let Some(path) = s.strip_prefix("net=").filter(|p| !p.is_empty()) {
                    return Ok(EvalSpec::NetFile(path.into()));
                }
                if let Some(inner) = s.strip_prefix("mirror:") {
                    return match inner.parse()? {
                        EvalSpec::Mean(_) | EvalSpec::Mirror(_) => Err(EvalSpecError::Unknown(s.into())),
                        spec => Ok(EvalSpec::Mirror(Box::new(spec))),
                    };
                }
                // A member may also be a bare path, as in `mean=a.hnet,b.hnet`.
                let members = s.strip_prefix("mean=").map(|list| {
                    list.split(',')
                        .map(|m| match m {
                            "" => Err(EvalSpecError::Unknown(s.into())),
                            "baseline" | "net" => m.parse(),
                            _ if m.starts_with("net=") || m.starts_with("mirror:") => m.parse(),
                            _ if m.starts_with("mean=") => Err(EvalSpecError::Unknown(s.into())),
                            _ => Ok(EvalSpec::NetFile(m.into())),
                        })
                        .collect::<Result<Vec<_>, _>>()
                });
                match members {
                    Some(Ok(m)) if m.len() >= 2 => Ok(EvalSpec::Mean(m)),
                    _ => Err(EvalSpecError::Unknown(s.into())),
                }
            }
        }
    }
}

impl std::fmt::Display for EvalSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalSpec::Baseline => write!(f, "baseline"),
            EvalSpec::Net => write!(f, "net"),
            EvalSpec::NetFile(p) => write!(f, "net={}", p.display()),
            EvalSpec::Mirror(inner) => write!(f, "mirror:{inner}"),
            EvalSpec::Mean(members) => {
                let names: Vec<String> = members.iter().map(|m| m.to_string()).collect();
                write!(f, "mean={}", names.join(","))
            }
        }
    }
}

impl EvalSpec {
    /// The network files this evaluator reads (a command must not write
    /// over them).
    pub fn files(&self) -> Vec<&std::path::Path> {
        match self {
            EvalSpec::Baseline | EvalSpec::Net => Vec::new(),
            EvalSpec::NetFile(path) => vec![path.as_path()],
            EvalSpec::Mirror(inner) => inner.files(),
            EvalSpec::Mean(members) => members.iter().flat_map(|m| m.files()).collect(),
        }
    }

    /// The evaluator and its identity (`baseline`, `net:embedded:CRC`,
    /// `net:PATH:CRC`, `mirror:ID`, `mean:ID|ID...`).
    pub fn load(&self) -> Result<(Box<dyn Evaluator>, String), EvalSpecError> {
        match self {
            EvalSpec::Baseline => Ok((Box::new(Baseline), "baseline".into())),
            EvalSpec::Net => Ok(quantized(Network::embedded_default(), "embedded")),
            EvalSpec::NetFile(path) => Ok(quantized(Network::load(path)?, &path.display().to_string())),
            EvalSpec::Mirror(inner) => {
                let (eval, id) = inner.load()?;
                Ok((Box::new(Mirror::new(eval)), format!("mirror:{id}")))
            }
            EvalSpec::Mean(members) => {
                let loaded = members.iter().map(|m| m.load()).collect::<Result<Vec<_>, _>>()?;
                let (evals, ids): (Vec<_>, Vec<_>) = loaded.into_iter().unzip();
                Ok((Box::new(Mean::new(evals)), format!("mean:{}", ids.join("|"))))
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
        if let Some(id) = identity.strip_prefix("mirror:") {
            return Ok(EvalSpec::Mirror(Box::new(EvalSpec::from_identity(id)?)));
        }
        if let Some(ids) = identity.strip_prefix("mean:") {
            let members = ids.split('|').map(EvalSpec::from_identity).collect::<Result<Vec<_>, _>>()?;
            return Ok(EvalSpec::Mean(members));
        }
        if let Some(rest) = identity.strip_prefix("net:") {
            if rest.starts_with("embedded:") {
                return Ok(EvalSpec::Net);
            }
            // Generation 25's network was embedded as `play` before it
            // left the binary; a run recorded with it names it plainly.
            if rest.starts_with("embedded-play:") {
                return Err(EvalSpecError::Changed {
                    stored: identity.into(),
                    found: "no embedded `play` network in this build: \
                            `git show 716c9ba:crates/eval/nets/play.hnet` and net=FILE"
                        .into(),
                });
            }
            if let Some((path, _crc)) = rest.rsplit_once(':') {
                return Ok(EvalSpec::NetFile(path.into()));
            }
        }
        Err(EvalSpecError::Unknown(identity.into()))
    }
}

/// A network as searches use it, with its identity `net:WHERE:CRC`.
fn quantized(net: Network, place: &str) -> (Box<dyn Evaluator>, String) {
    let name = format!("net:{place}:{:08x}", net.checksum());
    (Box::new(QuantizedNetwork::new(&net)), name)
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
        for bad in ["mean=", "mean=net", "mean=net,", "mean=net,mean=net,baseline"] {
            assert!(bad.parse::<EvalSpec>().is_err(), "{bad}");
        }
        for bad in ["mirror:", "mirror:mirror:net", "mirror:mean=net,baseline"] {
            assert!(bad.parse::<EvalSpec>().is_err(), "{bad}");
        }
        let mean: EvalSpec = "mean=net,baseline,a.hnet,mirror:net=a.hnet".parse().unwrap();
        assert_eq!(mean.to_string(), "mean=net,baseline,net=a.hnet,mirror:net=a.hnet");
        assert_eq!(mean.to_string().parse::<EvalSpec>().unwrap(), mean);
        let (_, id) = EvalSpec::Net.load().unwrap();
        assert!(id.starts_with("net:embedded:"));
        assert_eq!(EvalSpec::from_identity(&id).unwrap(), EvalSpec::Net);
        assert!("play".parse::<EvalSpec>().is_err(), "the embedded play network left the binary");
        let old = EvalSpec::from_identity("net:embedded-play:0123abcd").unwrap_err().to_string();
        assert!(old.contains("716c9ba"), "{old}");
        assert_eq!(EvalSpec::from_identity("baseline").unwrap(), EvalSpec::Baseline);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("n.hnet");
        Network::random(8, 1).save(&path).unwrap();
        let spec = EvalSpec::NetFile(path.clone());
        let (_, id) = spec.load().unwrap();
        assert_eq!(EvalSpec::from_identity(&id).unwrap(), spec);
        assert!(EvalSpec::reload(&id).is_ok());
        let mirror = EvalSpec::Mirror(Box::new(spec.clone()));
        let mean = EvalSpec::Mean(vec![EvalSpec::Net, spec.clone(), EvalSpec::Baseline, mirror]);
        let (eval, mean_id) = mean.load().unwrap();
        assert!(eval.name().starts_with("mean("));
        assert_eq!(EvalSpec::from_identity(&mean_id).unwrap(), mean);
        Network::random(8, 2).save(&path).unwrap();
        assert!(EvalSpec::reload(&mean_id).is_err());
        let changed = EvalSpec::reload(&id).err().unwrap();
        assert!(matches!(changed, EvalSpecError::Changed { .. }), "{changed}");
        let missing = EvalSpec::NetFile(dir.path().join("none.hnet")).load().err().unwrap();
        assert!(missing.to_string().contains("none.hnet"), "{missing}");
    }
}
