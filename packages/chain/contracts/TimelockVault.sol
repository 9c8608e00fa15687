// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title TimelockVault
/// @notice Holds native value (Q) for one beneficiary until a release time. Anyone may
///         deposit at any time; only the beneficiary may withdraw, and only once the block
///         timestamp has reached the release time. Both are fixed at construction.
///         Reviewed in REVIEW.md ("timelock-vault").
contract TimelockVault {
    address public immutable beneficiary;
    /// Unix seconds; withdrawal is allowed from the first block whose timestamp is >= this.
    uint64 public immutable releaseTime;

    bool private transient _entered;

    event Deposited(address indexed from, uint256 amount);
    event Withdrawn(address indexed to, uint256 amount);

    error InvalidBeneficiary();
    error InvalidReleaseTime();
    error ZeroDeposit();
    error NotBeneficiary(address caller);
    error StillLocked(uint256 timestamp, uint64 releaseTime);
    error NothingToWithdraw();
    error TransferFailed();
    error ReentrantCall();

    modifier nonReentrant() {
        if (_entered) revert ReentrantCall();
        _entered = true;
        _;
        _entered = false;
    }

    constructor(address vaultBeneficiary, uint64 vaultReleaseTime) {
        if (vaultBeneficiary == address(0)) revert InvalidBeneficiary();
        if (vaultReleaseTime == 0) revert InvalidReleaseTime();
        beneficiary = vaultBeneficiary;
        releaseTime = vaultReleaseTime;
    }

    /// Plain transfers are deposits (fits in the 2,300 gas stipend of Solidity's `transfer`).
    receive() external payable {
        _deposit();
    }

    function deposit() external payable {
        _deposit();
    }

    /// Sends the whole balance, including value forced in without a deposit, to the beneficiary.
    function withdraw() external nonReentrant {
        if (msg.sender != beneficiary) revert NotBeneficiary(msg.sender);
        if (block.timestamp < releaseTime) revert StillLocked(block.timestamp, releaseTime);
        uint256 amount = address(this).balance;
        if (amount == 0) revert NothingToWithdraw();
        // Checks and the event first, the external call last.
        emit Withdrawn(beneficiary, amount);
        (bool sent, ) = beneficiary.call{value: amount}("");
        if (!sent) revert TransferFailed();
    }

    function _deposit() private {
        if (msg.value == 0) revert ZeroDeposit();
        emit Deposited(msg.sender, msg.value);
    }
}
