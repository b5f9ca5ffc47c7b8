//! Module tree, use paths and re-exports.
pub mod cart;
pub mod net;
mod util;

pub use cart::Cart;

pub fn checkout(items: &[u32]) -> u32 {
    let total = util::sum(items);
    crate::net::send(total);
    total
}
