// Source of Rust symbols for scripts/demangle-golden.sh (built twice: legacy and v0 mangling).
use std::collections::HashMap;
use std::fmt::Debug;

pub struct Wrapper<T, const N: usize> {
    items: [T; N],
}

impl<T: Debug + Copy, const N: usize> Wrapper<T, N> {
    #[inline(never)]
    pub fn show(&self) -> String {
        format!("{:?}", self.items)
    }
}

pub trait Speak {
    fn speak(&self) -> String;
}

impl Speak for &'static str {
    #[inline(never)]
    fn speak(&self) -> String {
        self.to_string()
    }
}

impl<T: Speak> Speak for Vec<T> {
    #[inline(never)]
    fn speak(&self) -> String {
        self.iter().map(|s| s.speak()).collect::<Vec<_>>().join(",")
    }
}

#[inline(never)]
fn generic<F: Fn(i64) -> i64>(f: F, v: i64) -> i64 {
    f(v)
}

#[inline(never)]
fn tuple_and_slices(a: (u8, i16, char), b: &[u32], c: *const f64, d: &mut [bool; 3]) -> usize {
    a.0 as usize + b.len() + c as usize + d.len()
}

#[inline(never)]
fn dyn_fn(f: &dyn Fn(&str) -> usize) -> usize {
    f("hello")
}

fn main() {
    let w = Wrapper::<i32, 3> { items: [1, 2, 3] };
    let mut m: HashMap<String, Vec<u64>> = HashMap::new();
    m.entry("a".into()).or_default().push(1);
    let k = 7;
    let v = generic(move |x| x + k, 3);
    let mut flags = [true, false, true];
    let n = tuple_and_slices((1, 2, 'c'), &[1, 2], std::ptr::null(), &mut flags);
    let s = vec!["a", "b"].speak();
    let d = dyn_fn(&|s: &str| s.len());
    println!("{} {} {} {} {} {}", w.show(), m.len(), v, n, s, d);
}
