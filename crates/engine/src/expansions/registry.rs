//! The registry of expansions: one row per expansion id of `notation.md`,
//! with what it needs and which options belong to it. Set lists (`--sets`),
//! help texts, configuration checks and the deck builder read this table
//! instead of comparing names, and a game parses its expansion names once
//! into an [`Expansions`] bitset.

use std::fmt;
use std::str::FromStr;

use crate::limits::cut;

/// An expansion or tile set that a configuration can switch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ExpansionId {
    /// River I (12 tiles).
    River1,
    /// River II (12 tiles, fork and volcano lake).
    River2,
    /// The 20th-anniversary river (17 tiles, double-size source).
    River20,
    /// CutCassonne's 3 river tiles.
    Cutcassonne,
    /// Half-and-half, Spielbox 5/2014.
    Halfsies1,
    /// Half-and-half, Cundco.
    Halfsies2,
    /// The Plague.
    Plague,
    /// The Gingerbread Man (Winter Edition).
    Gingerbread,
    /// Map Chips (on a map).
    MapChips,
    /// Inns & Cathedrals (18 tiles, inns, cathedrals, the large follower).
    InnsCathedrals,
    /// Traders & Builders (24 tiles, trade goods, the builder, the pig).
    TradersBuilders,
    /// The Princess & the Dragon (30 tiles, the dragon, the fairy, the
    /// magic portal, the princess).
    PrincessDragon,
    /// Abbey & Mayor (12 tiles; the abbey, mayor, wagon and barn are in
    /// progress).
    AbbeyMayor,
    /// The Tower (18 tiles, tower floors, captures, prisoners, ransom).
    Tower,
}

/// Which rules family an expansion belongs to: sets of one family share
/// one module and one piece of game state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// The river sets.
    River,
    /// The Half-and-half sets.
    Halves,
    /// The Plague.
    Plague,
    /// The Gingerbread Man.
    Gingerbread,
    /// Map Chips.
    MapChips,
    /// Inns & Cathedrals.
    InnsCathedrals,
    /// Traders & Builders.
    TradersBuilders,
    /// The Princess & the Dragon.
    PrincessDragon,
    /// Abbey & Mayor.
    AbbeyMayor,
    /// The Tower.
    Tower,
}

/// One row of the registry.
#[derive(Debug)]
pub struct Expansion {
    /// Its id.
    pub id: ExpansionId,
    /// The id as written in records and `--sets`.
    pub key: &'static str,
    /// Its name in words, for messages.
    pub name: &'static str,
    /// Its rules family.
    pub family: Family,
    /// The base game it needs, if only one will do.
    pub needs_base: Option<&'static str>,
    /// Whether it needs a map (the Ukraine map is taken when none is named).
    pub needs_map: bool,
    /// Expansions of which at least one must be in play with it, and how
    /// to say so.
    pub needs_one_of: (&'static [ExpansionId], &'static str),
    /// Whether this version plays it.
    pub implemented: bool,
}

const fn row(id: ExpansionId, key: &'static str, name: &'static str, family: Family) -> Expansion {
    Expansion {
        id,
        key,
        name,
        family,
        needs_base: None,
        needs_map: false,
        needs_one_of: (&[], ""),
        implemented: true,
    }
}

/// Every expansion id, in the order help texts list them.
pub const REGISTRY: &[Expansion] = &[
    row(ExpansionId::River1, "river1", "River I", Family::River),
    row(ExpansionId::River2, "river2", "River II", Family::River),
    row(
        ExpansionId::River20,
        "river20",
        "the 20th-anniversary River",
        Family::River,
    ),
    Expansion {
        needs_one_of: (
            &[
                ExpansionId::River1,
                ExpansionId::River2,
                ExpansionId::River20,
            ],
            "a river set (river1, river2 or river20)",
        ),
        ..row(
            ExpansionId::Cutcassonne,
            "cutcassonne",
            "CutCassonne's river tiles",
            Family::River,
        )
    },
    row(
        ExpansionId::Halfsies1,
        "halfsies1",
        "Half-and-half (Spielbox)",
        Family::Halves,
    ),
    row(
        ExpansionId::Halfsies2,
        "halfsies2",
        "Half-and-half (Cundco)",
        Family::Halves,
    ),
    row(ExpansionId::Plague, "plague", "the Plague", Family::Plague),
    Expansion {
        needs_base: Some("winter"),
        ..row(
            ExpansionId::Gingerbread,
            "gingerbread",
            "the Gingerbread Man",
            Family::Gingerbread,
        )
    },
    Expansion {
        needs_map: true,
        ..row(
            ExpansionId::MapChips,
            "map-chips",
            "Map Chips",
            Family::MapChips,
        )
    },
    row(
        ExpansionId::InnsCathedrals,
        "inns-cathedrals",
        "Inns & Cathedrals",
        Family::InnsCathedrals,
    ),
    row(
        ExpansionId::TradersBuilders,
        "traders-builders",
        "Traders & Builders",
        Family::TradersBuilders,
    ),
    row(
        ExpansionId::PrincessDragon,
        "princess-dragon",
        "the Princess & the Dragon",
        Family::PrincessDragon,
    ),
    row(
        ExpansionId::AbbeyMayor,
        "abbey-mayor",
        "Abbey & Mayor",
        Family::AbbeyMayor,
    ),
    row(ExpansionId::Tower, "tower", "the Tower", Family::Tower),
];

impl ExpansionId {
    /// Its registry row.
    pub fn info(self) -> &'static Expansion {
        // The registry lists every id once, in declaration order.
        &REGISTRY[self as usize]
    }

    /// The id as written in records and `--sets`.
    pub fn key(self) -> &'static str {
        self.info().key
    }

    /// Its rules family.
    pub fn family(self) -> Family {
        self.info().family
    }
}

impl FromStr for ExpansionId {
    type Err = String;
    fn from_str(s: &str) -> Result<ExpansionId, String> {
        REGISTRY
            .iter()
            .find(|e| e.key == s)
            .map(|e| e.id)
            .ok_or_else(|| {
                format!(
                    "unknown expansion {}; known: {}",
                    cut(s),
                    known_keys().join(", ")
                )
            })
    }
}

impl fmt::Display for ExpansionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The ids this version plays, in registry order.
pub fn known_keys() -> Vec<&'static str> {
    REGISTRY
        .iter()
        .filter(|e| e.implemented)
        .map(|e| e.key)
        .collect()
}

/// What `--sets` takes, for help texts and errors: generated from the
/// registry and the built-in maps.
pub fn sets_help() -> String {
    let expansions: Vec<String> = REGISTRY
        .iter()
        .filter(|e| e.implemented)
        .map(|e| match (e.needs_base, e.needs_map, e.needs_one_of) {
            (Some(b), _, _) => format!("{} (needs {b})", e.key),
            (None, true, _) => format!(
                "{} (plays on a map: ukraine unless another is named)",
                e.key
            ),
            (None, false, (ids, _)) if !ids.is_empty() => {
                let keys: Vec<&str> = ids.iter().map(|i| i.key()).collect();
                format!("{} (with {})", e.key, keys.join(" or "))
            }
            _ => e.key.to_string(),
        })
        .collect();
    format!(
        "Base games: base, winter (first).\nExpansions: {}.\nMaps: {}.",
        expansions.join(", "),
        crate::map::BUILTIN_MAPS
            .iter()
            .map(|(file, _)| file.trim_end_matches(".toml"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The expansions of one game, parsed once: a bitset, so asking whether
/// one is on costs a mask test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Expansions(u16);

impl Expansions {
    /// No expansion.
    pub const NONE: Expansions = Expansions(0);

    /// Whether `id` is on.
    pub const fn has(self, id: ExpansionId) -> bool {
        self.0 & (1 << id as u8) != 0
    }

    /// Whether no expansion is on: the base game, where the turn skips
    /// every expansion hook with this one test.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether any expansion of `family` is on.
    pub fn has_family(self, family: Family) -> bool {
        self.iter().any(|e| e.family() == family)
    }

    /// Switches `id` on; false if it already was.
    pub fn insert(&mut self, id: ExpansionId) -> bool {
        let was = self.has(id);
        self.0 |= 1 << id as u8;
        !was
    }

    /// The ids switched on, in registry order.
    pub fn iter(self) -> impl Iterator<Item = ExpansionId> + Clone {
        REGISTRY
            .iter()
            .map(|e| e.id)
            .filter(move |id| self.has(*id))
    }

    /// The ids of one family, in registry order.
    pub fn of_family(self, family: Family) -> impl Iterator<Item = ExpansionId> + Clone {
        self.iter().filter(move |id| id.family() == family)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_has_its_row_and_parses_back() {
        for (i, e) in REGISTRY.iter().enumerate() {
            assert_eq!(e.id as usize, i, "{} is out of order", e.key);
            assert_eq!(e.key.parse::<ExpansionId>(), Ok(e.id));
            assert_eq!(e.id.to_string(), e.key);
        }
        assert!("dragons".parse::<ExpansionId>().is_err());
    }

    #[test]
    fn the_bitset_holds_what_was_inserted() {
        let mut s = Expansions::NONE;
        assert!(s.insert(ExpansionId::River2));
        assert!(!s.insert(ExpansionId::River2));
        s.insert(ExpansionId::Plague);
        assert!(s.has(ExpansionId::Plague) && !s.has(ExpansionId::River1));
        assert!(s.has_family(Family::River) && !s.has_family(Family::Halves));
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            [ExpansionId::River2, ExpansionId::Plague]
        );
    }

    #[test]
    fn help_lists_every_playable_id_and_map() {
        let h = sets_help();
        for k in known_keys() {
            assert!(h.contains(k), "{k} missing from {h}");
        }
        assert!(h.contains("ukraine"));
        // Only implemented expansions are offered.
        for e in REGISTRY.iter().filter(|e| !e.implemented) {
            assert!(!h.contains(e.key), "{} is not playable yet: {h}", e.key);
        }
    }
}
