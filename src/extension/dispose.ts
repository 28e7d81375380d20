/**
 * The base of the extension's classes that own disposables: `_register` hands a disposable to the
 * object, `dispose()` disposes everything registered, newest first, once. A disposable registered
 * after `dispose()` is disposed at once (nothing leaks from a late callback).
 */
import type * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private readonly _toDispose: vscode.Disposable[] = [];
  private _isDisposed = false;

  protected get isDisposed(): boolean {
    return this._isDisposed;
  }

  protected _register<T extends vscode.Disposable>(d: T): T {
    if (this._isDisposed) d.dispose();
    else this._toDispose.push(d);
    return d;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    while (this._toDispose.length) {
      try {
        this._toDispose.pop()?.dispose();
      } catch {
        // One failing disposable must not keep the others alive.
      }
    }
  }
}
