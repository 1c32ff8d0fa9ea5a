/** Every way a creature file can be refused ends here: the message names the file and the reason, e.g.
 *  "broken.glb: not a glTF binary (bad magic 0x6c6c6568)". The editor shows it and keeps what it had. */
export class CreatureLoadError extends Error {
  constructor(readonly fileName: string, readonly reason: string) {
    super(`${fileName}: ${reason}`);
    this.name = 'CreatureLoadError';
  }
}

export const hex32 = (n: number): string => `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
