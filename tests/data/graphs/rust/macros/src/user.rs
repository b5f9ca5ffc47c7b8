use crate::macros::helper;

pub fn run() -> u32 {
    let v = vec![helper(), square!(2)];
    assert_eq!(v.len(), 2);
    crate::square!(helper())
}
