//! Any bytes given as a record: parsing and replaying never panic, and an
//! error always carries a message.
#![no_main]

use bastide_engine::record::Record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Record::parse(text) {
        Ok(rec) => {
            if let Err(e) = rec.replay() {
                assert!(!e.to_string().is_empty());
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
