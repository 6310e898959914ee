/** The part of pino-roll the app uses (the package ships no types). */
declare module 'pino-roll' {
  import type { SonicBoom, SonicBoomOpts } from 'sonic-boom';
  interface PinoRollOptions extends Omit<SonicBoomOpts, 'dest' | 'fd'> {
    file: string;
    size?: string | number;
    frequency?: string | number;
    extension?: string;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
  }
  export default function pinoRoll(options: PinoRollOptions): Promise<SonicBoom>;
}
