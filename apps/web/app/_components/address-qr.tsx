"use client";

import QRCode from "qrcode";
import { useEffect, useState } from "react";

/** The address as a QR code (drawn here from the text; nothing leaves the page). */
export function AddressQr({ address }: { address: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    QRCode.toDataURL(address, { errorCorrectionLevel: "M", margin: 1, width: 320 }).then(
      (url) => current && setSrc(url),
      () => current && setSrc(null),
    );
    return () => {
      current = false;
    };
  }, [address]);
  return <div className="qr">{src ? <img src={src} alt={`QR code of the address ${address}`} data-testid="address-qr" /> : null}</div>;
}
