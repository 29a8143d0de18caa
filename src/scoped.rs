//! A thread-local setting for the length of one call, restored afterwards even if the call
//! unwinds: the input sandbox of a server request and the cancel flag of a run use it.

use std::cell::RefCell;
use std::thread::LocalKey;

/// Runs `f` with `key` holding `value`, then puts back what it held before.
pub(crate) fn with<T: 'static, R>(
    key: &'static LocalKey<RefCell<Option<T>>>,
    value: T,
    f: impl FnOnce() -> R,
) -> R {
    struct Restore<T: 'static> {
        key: &'static LocalKey<RefCell<Option<T>>>,
        before: Option<T>,
    }
    impl<T: 'static> Drop for Restore<T> {
        fn drop(&mut self) {
            let before = self.before.take();
            self.key.with(|k| *k.borrow_mut() = before);
        }
    }
    let before = key.with(|k| k.borrow_mut().replace(value));
    let _restore = Restore { key, before };
    f()
}
