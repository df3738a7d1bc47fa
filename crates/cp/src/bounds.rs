//! The bounds every model keeps to, so that no arithmetic on values overflows and no domain
//! outgrows memory. A module of its own: the domains enforce them and the errors name them,
//! and neither depends on the other for it.

/// Every domain value, view offset and view value lies in `-VALUE_LIMIT..=VALUE_LIMIT`.
pub const VALUE_LIMIT: i32 = 1 << 28;

/// The most values one bitset domain holds: 2^26 (8 MiB of bits).
pub const MAX_DOMAIN_SIZE: u64 = 1 << 26;
