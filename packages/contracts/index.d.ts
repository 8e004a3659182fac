/** Absolute path of build/signer.wasm (the signer contract, NEAR's `v1.signer` interface). */
export declare const signerWasmPath: string;
/** Absolute path of build/agent.wasm (the shade agent contract). */
export declare const agentWasmPath: string;
/** Absolute path of build/agent-v2.wasm (the 2.0 agent contract, the shade-contract-template interface). */
export declare const agentV2WasmPath: string;
/** Absolute path of build/registrar.wasm (the `testnet` account's registrar on a testnet twin). */
export declare const registrarWasmPath: string;
/** The signer contract's Wasm; throws a clear error when the package has not been built. */
export declare function readSignerWasm(): Buffer;
/** The agent contract's Wasm; throws a clear error when the package has not been built. */
export declare function readAgentWasm(): Buffer;
/** The 2.0 agent contract's Wasm; throws a clear error when the package has not been built. */
export declare function readAgentV2Wasm(): Buffer;
/** The registrar contract's Wasm (`create_account` of `*.testnet`); throws a clear error when the package has not been built. */
export declare function readRegistrarWasm(): Buffer;
