import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { MapStore } from './map-store';

export interface S3MapStoreConfig {
  bucket: string;
  /** Key prefix inside the bucket ("maps/"). */
  prefix: string;
  region: string;
  /** An S3-compatible service (MinIO, R2, ...): path-style addressing is used then. Unset: AWS. */
  endpoint?: string;
  /** Unset: the SDK's default credential chain (environment, instance role, ...). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

/**
 * Maps as objects in an S3-compatible bucket. `put` streams the checked temporary file as one
 * PutObject with its known length (95 MiB is under the 5 GiB single-PUT limit, so no multipart
 * bookkeeping can be left half-done), then removes the temporary file.
 */
export class S3MapStore implements MapStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly config: S3MapStoreConfig) {
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // S3-compatible services differ in their support of the newer default (aws-chunked bodies
      // with trailing CRC checksums); a plain signed PUT with Content-Length works everywhere.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    return `${this.config.prefix}${key}`;
  }

  async put(key: string, tempPath: string, sizeBytes: number): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.config.bucket,
          Key: this.key(key),
          Body: createReadStream(tempPath),
          ContentLength: sizeBytes,
          ContentType: 'application/octet-stream',
        }),
      );
    } finally {
      await unlink(tempPath).catch(() => undefined);
    }
  }

  async get(key: string): Promise<Readable | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }));
      return answer.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }));
      return answer.ContentLength ?? null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.key(key) }));
  }

  close(): void {
    this.client.destroy();
  }
}
