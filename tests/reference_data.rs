//! Sanity of the reference oracle itself and of our capture parser on it
//! (docs/format.md §7.1).
mod support;

#[test]
fn reference_capture_has_374_well_formed_records() {
    let records = support::reference_records();
    assert_eq!(records.len(), 374);
    let c = records
        .iter()
        .filter(|r| r.name.starts_with("TestProviderC_"))
        .count();
    let cpp = records
        .iter()
        .filter(|r| r.name.starts_with("TestProviderCpp_"))
        .count();
    let dynp = records
        .iter()
        .filter(|r| r.name.starts_with("TestProviderDyn_"))
        .count();
    assert_eq!((c, cpp, dynp), (116, 143, 114));
    assert_eq!(
        support::event_name(&records[0].event).as_deref(),
        Some("LongProviderEvent")
    );
}
