//! CRC-32 check values for checkpoint records and shard results.
//!
//! Every line the counter writes for later reading (a checkpoint's header and records, a
//! shard's JSON) carries the CRC-32 (the IEEE polynomial of zlib, Ethernet and PNG) of its
//! contents as eight lower-case hexadecimal digits. A CRC-32 detects every change confined to
//! 32 consecutive bits (so every changed, dropped-in or flipped byte within a line) and all but
//! one in 2³² of any other accidental damage. It protects against accidents (a bad disk, a
//! torn copy, a slip in an editor), not against forgery: anyone can recompute it, which is why
//! the final totals are also checked against the published counts where they are known.

/// The reflected IEEE polynomial.
const POLYNOMIAL: u32 = 0xEDB8_8320;

/// The byte-at-a-time table, built at compile time.
const TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut crc = i as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ POLYNOMIAL
            } else {
                crc >> 1
            };
            bit += 1;
        }
        table[i] = crc;
        i += 1;
    }
    table
};

/// The CRC-32 of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc = TABLE[((crc ^ u32::from(b)) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

/// The check value of `text` as written in files: eight lower-case hexadecimal digits.
pub fn check(text: &str) -> String {
    format!("{:08x}", crc32(text.as_bytes()))
}

/// Whether `written` is exactly the check value of `text` (lower case, eight digits).
pub fn verify(text: &str, written: &str) -> bool {
    written.len() == 8 && written == check(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_check_value() {
        // The catalogue's check value of CRC-32/ISO-HDLC.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        assert_eq!(check("123456789"), "cbf43926");
        assert!(verify("123456789", "cbf43926"));
        assert!(!verify("123456789", "CBF43926"));
    }

    #[test]
    fn every_single_byte_change_is_detected() {
        let text = b"fb3c0ae91037c0b6 4 1896 237 211634";
        let good = crc32(text);
        for i in 0..text.len() {
            for b in 0..=255u8 {
                if b != text[i] {
                    let mut changed = text.to_vec();
                    changed[i] = b;
                    assert_ne!(crc32(&changed), good, "byte {i} to {b}");
                }
            }
        }
    }
}
