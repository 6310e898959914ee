/**
 * The one error that crosses from the main process to the renderer: a kind the
 * screens can act on, a message a manager understands, and the service's own
 * status and words kept apart for a "details" disclosure. Plain TypeScript (no
 * zod), so the renderer can use it without bundling the schemas.
 */
export interface DeskErrorData {
  kind: string;
  message: string;
  status?: number;
  serviceMessage?: string;
  details?: Record<string, unknown>;
}

export class DeskError extends Error {
  readonly kind: string;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  constructor(data: DeskErrorData) {
    super(data.message);
    this.name = 'DeskError';
    this.kind = data.kind;
    this.status = data.status;
    this.serviceMessage = data.serviceMessage;
    this.details = data.details;
  }
  toData(): DeskErrorData {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.status !== undefined && { status: this.status }),
      ...(this.serviceMessage !== undefined && { serviceMessage: this.serviceMessage }),
      ...(this.details !== undefined && { details: this.details }),
    };
  }
}

/** The same check as views.ts's deskErrorData schema, by hand, for the renderer. */
export function isDeskErrorData(value: unknown): value is DeskErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.kind === 'string' &&
    typeof v.message === 'string' &&
    (v.status === undefined || Number.isInteger(v.status)) &&
    (v.serviceMessage === undefined || typeof v.serviceMessage === 'string') &&
    (v.details === undefined ||
      (typeof v.details === 'object' && v.details !== null && !Array.isArray(v.details)))
  );
}
