//! The byte stream the viewer decodes: unsigned LEB128 varints, zigzag for signed numbers, and
//! columns written one after another (all of one field, then all of the next), so that runs of
//! small and equal numbers sit together. `viewer/decode.js` reads exactly this.

/// A growing byte stream.
#[derive(Debug, Default)]
pub struct Bytes {
    buf: Vec<u8>,
}

impl Bytes {
    /// An unsigned varint: seven bits a byte, low bits first, the high bit set on every byte but
    /// the last.
    pub fn uint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.buf.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.buf.push(v as u8);
    }

    /// A signed varint: zigzag (0, -1, 1, -2 … → 0, 1, 2, 3 …), then [`Bytes::uint`].
    pub fn int(&mut self, v: i64) {
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// A `usize` as an unsigned varint.
    pub fn len(&mut self, n: usize) {
        self.uint(n as u64);
    }

    /// Its bytes.
    pub fn into_vec(self) -> Vec<u8> {
        self.buf
    }

    /// How many bytes so far.
    pub fn size(&self) -> usize {
        self.buf.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_are_leb128_and_zigzag() {
        let mut b = Bytes::default();
        b.uint(0);
        b.uint(127);
        b.uint(128);
        b.uint(300);
        b.int(0);
        b.int(-1);
        b.int(1);
        b.int(-64);
        b.int(64);
        assert_eq!(b.into_vec(), vec![0, 127, 0x80, 1, 0xAC, 2, 0, 1, 2, 127, 0x80, 1]);
    }

    #[test]
    fn the_extremes_fit() {
        let mut b = Bytes::default();
        b.uint(u64::MAX);
        b.int(i64::MIN);
        let v = b.into_vec();
        assert_eq!(v.len(), 20);
        assert_eq!(v[9], 1);
    }
}
