extension String {
    /// Percent-encodes everything but unreserved characters and `'(),` — the strict form the iOS client sends
    /// (`:` → `%3A`, space → `%20`, `+` → `%2B`).
    var queryEncoded: String {
        var result = ""
        for byte in utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-._~'(),".unicodeScalars.contains(scalar)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }
}
