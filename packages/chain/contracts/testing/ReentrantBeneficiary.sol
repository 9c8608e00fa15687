// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice Test-only (never deployed by the service, not in the catalog): a TimelockVault
///         beneficiary that tries to withdraw again from inside the withdrawal it receives.
contract ReentrantBeneficiary {
    address public vault;
    bool public reentryAttempted;
    bool public reentrySucceeded;
    bytes public reentryRevertData;

    function setVault(address target) external {
        vault = target;
    }

    function withdrawFromVault() external {
        (bool ok, bytes memory data) = vault.call(abi.encodeWithSignature("withdraw()"));
        if (!ok) {
            assembly {
                revert(add(data, 32), mload(data))
            }
        }
    }

    receive() external payable {
        if (reentryAttempted) return;
        reentryAttempted = true;
        (bool ok, bytes memory data) = vault.call(abi.encodeWithSignature("withdraw()"));
        reentrySucceeded = ok;
        reentryRevertData = data;
    }
}
