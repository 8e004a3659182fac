/**
 * Host functions for registers, the call's context and economics (nearcore logic.rs: registers, context,
 * economics, validator sections). Each pays `base` first; the prohibited-in-view ones check after paying.
 */
import { encodePublicKey } from '@shadebox/primitives';
import { U64_MAX, type VMLogic } from '../vm-logic.js';

const utf8 = new TextEncoder();

export function contextImports(vm: VMLogic) {
  const setRegister = (id: bigint, value: Uint8Array) => vm.registers.set(id, value);
  return {
    read_register(registerId: bigint, ptr: bigint): void {
      vm.payBase();
      const data = vm.registers.get(registerId);
      vm.writeMemory(ptr, data);
    },
    register_len(registerId: bigint): bigint {
      vm.payBase();
      const len = vm.registers.lengthOf(registerId);
      return len === undefined ? U64_MAX : BigInt(len);
    },
    write_register(registerId: bigint, dataLen: bigint, dataPtr: bigint): void {
      vm.payBase();
      setRegister(registerId, vm.readMemory(dataPtr, dataLen));
    },
    current_account_id(registerId: bigint): void {
      vm.payBase();
      setRegister(registerId, utf8.encode(vm.ctx.currentAccountId));
    },
    signer_account_id(registerId: bigint): void {
      vm.payBase();
      vm.prohibitedInView('signer_account_id');
      setRegister(registerId, utf8.encode(vm.ctx.signerAccountId));
    },
    signer_account_pk(registerId: bigint): void {
      vm.payBase();
      vm.prohibitedInView('signer_account_pk');
      setRegister(registerId, encodePublicKey(vm.ctx.signerAccountPk));
    },
    predecessor_account_id(registerId: bigint): void {
      vm.payBase();
      vm.prohibitedInView('predecessor_account_id');
      setRegister(registerId, utf8.encode(vm.ctx.predecessorAccountId));
    },
    refund_to_account_id(registerId: bigint): void {
      vm.payBase();
      vm.prohibitedInView('refund_to_account_id');
      setRegister(registerId, utf8.encode(vm.ctx.refundToAccountId ?? vm.ctx.predecessorAccountId));
    },
    /** 0: no contract (the register is left alone); 1: a local contract, 2: a global one by hash (the
     * register gets the 32-byte hash); 3: a global one by account (the register gets that account id). */
    current_contract_code(registerId: bigint): bigint {
      vm.payBase();
      const contract = vm.ctx.accountContract ?? { kind: 'None' };
      switch (contract.kind) {
        case 'None':
          return 0n;
        case 'Local':
          setRegister(registerId, contract.codeHash);
          return 1n;
        case 'Global':
          setRegister(registerId, contract.codeHash);
          return 2n;
        case 'GlobalByAccount':
          setRegister(registerId, utf8.encode(contract.accountId));
          return 3n;
      }
    },
    input(registerId: bigint): void {
      vm.payBase();
      setRegister(registerId, vm.ctx.input);
    },
    block_index(): bigint {
      vm.payBase();
      return vm.ctx.blockHeight;
    },
    block_timestamp(): bigint {
      vm.payBase();
      return vm.ctx.blockTimestamp;
    },
    epoch_height(): bigint {
      vm.payBase();
      return vm.ctx.epochHeight;
    },
    storage_usage(): bigint {
      vm.payBase();
      return vm.storageUsage;
    },
    account_balance(balancePtr: bigint): void {
      vm.payBase();
      vm.writeU128(balancePtr, vm.balance);
    },
    account_locked_balance(balancePtr: bigint): void {
      vm.payBase();
      vm.writeU128(balancePtr, vm.ctx.accountLockedBalance);
    },
    // nearcore's doc comment calls this prohibited in views, but its code does not check: neither do we.
    attached_deposit(balancePtr: bigint): void {
      vm.payBase();
      vm.writeU128(balancePtr, vm.ctx.attachedDeposit);
    },
    prepaid_gas(): bigint {
      vm.payBase();
      vm.prohibitedInView('prepaid_gas');
      return vm.ctx.prepaidGas;
    },
    used_gas(): bigint {
      vm.payBase();
      vm.prohibitedInView('used_gas');
      return vm.gas.used;
    },
    random_seed(registerId: bigint): void {
      vm.payBase();
      setRegister(registerId, vm.ctx.randomSeed);
    },
    chain_id(registerId: bigint): void {
      vm.payBase();
      setRegister(registerId, utf8.encode(vm.ctx.chainId));
    },
    validator_stake(accountIdLen: bigint, accountIdPtr: bigint, stakePtr: bigint): void {
      vm.payBase();
      const accountId = vm.readAccountId(accountIdPtr, accountIdLen);
      vm.gas.payBase(vm.costs.validator_stake_base);
      vm.writeU128(stakePtr, vm.ext.validatorStake(accountId) ?? 0n);
    },
    validator_total_stake(stakePtr: bigint): void {
      vm.payBase();
      vm.gas.payBase(vm.costs.validator_total_stake_base);
      vm.writeU128(stakePtr, vm.ext.validatorTotalStake());
    },
  };
}
