use super::*;

fn url(s: &str) -> Url {
    match Url::parse(s) {
        Ok(url) => url,
        Err(err) => panic!("{s:?}: {err}"),
    }
}

#[test]
fn insert_and_contains() {
    let mut seen = SeenSet::new();
    assert!(seen.is_empty());
    for (input, new) in [
        ("http://example.com/", true),
        ("http://example.com/a", true),
        ("http://example.com/", false),
        ("https://example.com/", true),
        ("http://example.com/A", true),
        ("http://example.com/a", false),
    ] {
        assert_eq!(seen.insert(&url(input)), new, "{input}");
        assert!(seen.contains(&url(input)), "{input}");
    }
    assert_eq!(seen.len(), 4);
    assert!(!seen.contains(&url("http://example.com/b")));
}

#[test]
fn keys_are_stable() {
    // Pinned: a persisted set must stay valid across versions.
    for (input, expected) in [
        ("", 0x5abe_29a5_d6d0_9f20_e4cd_949a_94a1_b893_u128),
        (
            "http://example.com/",
            0xc96c_8cf0_8f06_9ede_22c1_e3de_8a19_9538_u128,
        ),
    ] {
        assert_eq!(UrlKey::of_str(input).to_u128(), expected, "{input:?}");
    }
}

#[test]
fn keys_round_trip() {
    let seen: SeenSet = (0..1000)
        .map(|i| UrlKey::of_str(&format!("http://example.com/{i}")))
        .collect();
    assert_eq!(seen.len(), 1000);
    let again: SeenSet = seen
        .keys()
        .map(|k| UrlKey::from_u128(k.to_u128()))
        .collect();
    assert_eq!(again.len(), 1000);
    assert!(seen.keys().all(|k| again.contains_key(k)));
    assert_eq!(
        UrlKey::of(&url("http://example.com/7")),
        UrlKey::of_str("http://example.com/7")
    );
    assert!(again.contains(&url("http://example.com/999")));
    assert!(!again.contains(&url("http://example.com/1000")));
}

#[test]
fn memory_per_url_stays_under_100_bytes() {
    let mut seen = SeenSet::new();
    assert_eq!(seen.heap_bytes(), 0);
    let mut worst: f64 = 0.0;
    for i in 0..200_000u32 {
        seen.insert_key(UrlKey::of_str(&format!(
            "https://h{}.example/p/{i}",
            i % 97
        )));
        if i >= 1000 {
            #[allow(clippy::cast_precision_loss, reason = "a ratio for a test")]
            let per_url = seen.heap_bytes() as f64 / seen.len() as f64;
            worst = worst.max(per_url);
        }
    }
    assert_eq!(seen.len(), 200_000);
    // Right after a growth the table is 7/16 full: 17 / (7/16) ≈ 38.9 bytes per URL.
    assert!(worst <= 40.0, "worst {worst} bytes per URL");
    let with_room = SeenSet::with_capacity(200_000);
    assert!(with_room.heap_bytes() >= 200_000 * 17);
    assert_eq!(SeenSet::with_capacity(3).heap_bytes(), 4 * 17 + 16);
}
