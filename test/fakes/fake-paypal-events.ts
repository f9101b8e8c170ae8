import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * PayPal webhook deliveries as the fake PayPal sends them: the event envelope of Notifications v1
 * and the transmission headers. PayPal signs `transmission_id|transmission_time|webhook_id|crc32`
 * with an RSA key behind `paypal-cert-url`; the fake, its own only verifier, uses an HMAC key.
 */

export function webhookEvent(eventType: string, resourceType: string, summary: string, resource: Record<string, unknown>): Record<string, unknown> {
  return {
    id: `WH-${randomBytes(9).toString('hex').toUpperCase().slice(0, 17)}`,
    event_version: '1.0',
    create_time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    resource_type: resourceType,
    resource_version: '2.0',
    event_type: eventType,
    summary,
    resource,
    links: [],
  };
}

export function transmissionSignature(signed: { transmissionId: string; time: string; webhookId: string; body: string }, key: Buffer): string {
  return createHmac('sha256', key).update(`${signed.transmissionId}|${signed.time}|${signed.webhookId}|${crc32(signed.body)}`).digest('base64');
}

export function signDelivery(
  event: Record<string, unknown>,
  signer: { webhookId: string; key: Buffer; certUrl: string },
): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify(event);
  const transmissionId = randomUUID();
  const time = new Date().toISOString();
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': signer.certUrl,
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-sig': transmissionSignature({ transmissionId, time, webhookId: signer.webhookId, body }, signer.key),
      'paypal-transmission-time': time,
    },
  };
}
