//! The rule options a configuration switches, checked, and the part of a
//! configuration's check that needs the expansions' rules (which fields and
//! options belong to which expansion). `config.rs` is the vocabulary, plain
//! data that imports no rule; this module sits on the rules side.

use std::collections::BTreeMap;

use crate::config::{ConfigError, GameConfig};
use crate::expansions::halfsies::HalfOptions;
use crate::expansions::registry::{ExpansionId, Family};
use crate::expansions::river::RiverOptions;
use crate::expansions::{self as ext};
use crate::limits::cut;

impl GameConfig {
    /// Checks the sizes of the lists and names of a configuration, and that
    /// every field and option that belongs to one expansion comes with it.
    /// Decision: such a field without its expansion is refused, never
    /// silently ignored, so a typo in the expansion list cannot quietly
    /// change the game.
    pub fn check_shape(&self) -> Result<(), ConfigError> {
        self.check_sizes()?;
        // Names are checked by the registry later; here an unknown name
        // simply switches nothing on.
        let families: Vec<Family> = self
            .expansions
            .iter()
            .filter_map(|e| e.parse::<ExpansionId>().ok())
            .map(ExpansionId::family)
            .collect();
        let has = |f: Family| families.contains(&f);
        // (field, whose it is, what to add, whether its expansion is on)
        let mut fields: Vec<(String, &'static str, &'static str, bool)> = Vec::new();
        let present = [
            ("hands", self.hands.is_some()),
            ("chips", self.chips.is_some()),
            ("chip_draws", self.chip_draws.is_some()),
        ];
        for (name, _) in present.iter().filter(|f| f.1) {
            if let Some((family, owner, add)) = ext::owner_of(name) {
                fields.push((format!("\"{name}\""), owner, add, has(family)));
            }
        }
        for name in self.options.keys() {
            let (owner, add, on) = if let Some((family, owner, add)) = ext::owner_of(name) {
                (owner, add, has(family))
            } else if name == "start_spaces" {
                ("a map", "\"map\": \"ukraine\"", self.map.is_some())
            } else {
                continue;
            };
            fields.push((format!("option {}", cut(name)), owner, add, on));
        }
        if let Some((field, owner, add, _)) = fields.into_iter().find(|f| !f.3) {
            return Err(ConfigError::NotInPlay { field, owner, add });
        }
        Ok(())
    }
}

/// Checked rule options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Followers each player starts with.
    pub followers: u8,
    /// The river's house rules.
    pub river: RiverOptions,
    /// The Gingerbread Man's first print run: no tile D, two tiles C.
    pub gingerbread_misprint: bool,
    /// Half-and-half options.
    pub halves: HalfOptions,
    /// On a map: the two start spaces used (1-based), default 1 and 2.
    pub start_spaces: [u8; 2],
    /// River II's pig herd gives its bonus with Traders & Builders
    /// (`false`: the house rule of seed `002`, line 211).
    pub pig_herd_bonus: bool,
    /// Abbey & Mayor: River II's pig herd adds 1 a city to the barns' final
    /// scoring too (the house rule of seed `002`, line 447; default false).
    pub pig_herd_barn: bool,
    /// River II's volcano lake gives its extra turn with the Princess & the
    /// Dragon too (`false`: `princess-dragon.md` Decision P5's other
    /// reading, seed `002`, line 440).
    pub volcano_extra_turn: bool,
}

/// The options of the base game and maps, with what they take (each
/// expansion lists its own: `Expansion::OPTIONS`).
pub const KNOWN_OPTIONS: &[(&str, &str)] = &[
    ("followers", "followers per player, 1–20 (default 7)"),
    (
        "start_spaces",
        "on a map: the two start spaces used, e.g. [1, 3] (default [1, 2])",
    ),
];

impl Options {
    /// Reads the options map of a configuration.
    pub fn parse(map: &BTreeMap<String, serde_json::Value>) -> Result<Options, ConfigError> {
        let mut o = Options {
            followers: 7,
            river: RiverOptions::parse(map)?,
            gingerbread_misprint: false,
            halves: HalfOptions::parse(map)?,
            start_spaces: [1, 2],
            pig_herd_bonus: true,
            pig_herd_barn: false,
            volcano_extra_turn: true,
        };
        for (k, v) in map {
            match k.as_str() {
                k if RiverOptions::KNOWN.iter().any(|(n, _)| *n == k) => {}
                k if HalfOptions::KNOWN.iter().any(|(n, _)| *n == k) => {}
                "start_spaces" => {
                    let bad = || ConfigError::BadOption {
                        name: k.clone(),
                        problem: format!(
                            "{v} is not two different start space numbers, e.g. [1, 3]"
                        ),
                    };
                    let list = v.as_array().ok_or_else(bad)?;
                    let nums: Vec<u8> = list
                        .iter()
                        .map(|n| n.as_u64().filter(|n| (1..=9).contains(n)).map(|n| n as u8))
                        .collect::<Option<_>>()
                        .ok_or_else(bad)?;
                    match nums.as_slice() {
                        [a, b] if a != b => o.start_spaces = [*a, *b],
                        _ => return Err(bad()),
                    }
                }
                "gingerbread_misprint" => {
                    o.gingerbread_misprint = v.as_bool().ok_or_else(|| ConfigError::BadOption {
                        name: k.clone(),
                        problem: format!("{v} is not true or false"),
                    })?;
                }
                "pig_herd_bonus" => {
                    o.pig_herd_bonus = v.as_bool().ok_or_else(|| ConfigError::BadOption {
                        name: k.clone(),
                        problem: format!("{v} is not true or false"),
                    })?;
                }
                "pig_herd_barn" => {
                    o.pig_herd_barn = v.as_bool().ok_or_else(|| ConfigError::BadOption {
                        name: k.clone(),
                        problem: format!("{v} is not true or false"),
                    })?;
                }
                "volcano_extra_turn" => {
                    o.volcano_extra_turn = v.as_bool().ok_or_else(|| ConfigError::BadOption {
                        name: k.clone(),
                        problem: format!("{v} is not true or false"),
                    })?;
                }
                "followers" => {
                    o.followers = v.as_u64().filter(|n| (1..=20).contains(n)).ok_or_else(|| {
                        ConfigError::BadOption {
                            name: k.clone(),
                            problem: format!("{v} is not a whole number from 1 to 20"),
                        }
                    })? as u8;
                }
                _ => {
                    return Err(ConfigError::UnknownOption {
                        name: k.clone(),
                        known: KNOWN_OPTIONS
                            .iter()
                            .copied()
                            .chain(ext::options())
                            .map(|(n, d)| format!("{n} ({d})"))
                            .collect::<Vec<_>>()
                            .join(", "),
                    })
                }
            }
        }
        Ok(o)
    }
}
